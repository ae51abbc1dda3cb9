// Public API of the data-model compiler. Pure TypeScript: runs in the main process and in a renderer worker.

export { checkModel, compileModel, createIncrementalCompiler } from './compiler';
export type { CompilerHooks, FileChange, IncrementalCompiler } from './compiler';
export { MODEL_LIMITS } from './limits';
export { dict, own } from './dict';
export { analyzeWarehousePush, analyzeLakehousePublish, analyzeWarehousePushWith, analyzeLakehousePublishWith, lookupOf, usesDataSource, viewDataSources } from './analyze';
export type { LakehouseOptions, LakehousePublishAnalysis, ModelLookup, SkippedFeature, WarehousePushAnalysis } from './analyze';
export { DiagnosticCodes } from './codes';
export type { DiagnosticCode } from './codes';
export { isModelSourcePath, MODEL_FOLDERS, modelFormatOf, parseModelFile } from './parse';
export { parseEquiJoin, plainColumn, scanSql } from './references';
export type { SqlReference, SqlScan } from './references';
export { codeFrame } from './frame';
export type {
  AccessPolicy,
  AnalyzerDataSource,
  CompileOptions,
  CompileResult,
  CompileVerdict,
  CompiledCube,
  CompiledModel,
  CompiledView,
  Diagnostic,
  Dimension,
  DimensionType,
  Folder,
  Granularity,
  Hierarchy,
  Join,
  JoinColumn,
  JoinColumnPair,
  JoinGraphEdge,
  Measure,
  MeasureFilter,
  MeasureType,
  MemberBase,
  ModelFile,
  ModelFileInfo,
  ModelFormat,
  PlainValue,
  PreAggregation,
  Relationship,
  RollingWindow,
  Segment,
  Severity,
  SourceLocation,
  ViewCube,
  ViewCubeInclude,
  ViewGroup,
  ViewMember,
  ViewMemberKind,
} from './types';
export { diagnosticJson, sqlLocOf } from './types';
