// The data API's row shape lives with the planner (src-shared/model/query/shape.ts), where the
// model tests of the command line use it too (issue 26).
export { formatTime, shapeRows } from '../../../src-shared/model/query/shape';
