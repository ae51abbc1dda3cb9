/**
 * DESCRIBE (or DESC) SEMANTIC VIEW name; DESCRIBE of the other object kinds is recognised and
 * refused as not executed.
 */
import { unsupported } from '../errors';
import type { DescribeSemanticViewStatement } from './ast';
import { position } from './cursor';
import type { SqlParser } from './expression';

export function parseDescribe(p: SqlParser): DescribeSemanticViewStatement {
  const start = p.next();
  if (!p.atWord('SEMANTIC')) {
    const what = p.peek();
    if (what.kind === 'word' && ['TABLE', 'VIEW', 'DATABASE', 'SCHEMA', 'WAREHOUSE'].includes(what.value)) {
      throw unsupported(`DESCRIBE ${what.value} is not executed.`);
    }
    return p.fail(what);
  }
  p.next();
  p.expectWord('VIEW');
  return { type: 'describe_semantic_view', name: p.qualifiedName(), pos: position(start) };
}
