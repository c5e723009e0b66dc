/** Domain names for the contract's schemas, so code reads `Server` rather than a path into `components`. */
import type { components, operations } from '../generated/openapi.js';

type Schemas = components['schemas'];

export type ErrorCode = Schemas['ErrorCode'];
export type Problem = Schemas['Problem'];
export type ProblemFieldError = Schemas['ProblemFieldError'];
export type ServerSort = Schemas['ServerSort'];
export type ToolSort = Schemas['ToolSort'];
export type Authentication = Schemas['Authentication'];
export type Transport = Schemas['Transport'];
export type SourceName = Schemas['SourceName'];
export type ServerSummary = Schemas['ServerSummary'];
export type ServerQualityFlag = Schemas['ServerQualityFlag'];
export type ToolQualityFlag = Schemas['ToolQualityFlag'];
export type Server = Schemas['Server'];
export type ServerVersion = Schemas['ServerVersion'];
export type SourceRef = Schemas['SourceRef'];
export type Package = Schemas['Package'];
export type EnvironmentVariable = Schemas['EnvironmentVariable'];
export type PackageArgument = Schemas['PackageArgument'];
export type Remote = Schemas['Remote'];
export type RemoteHeader = Schemas['RemoteHeader'];
export type Tool = Schemas['Tool'];
export type ToolSummary = Schemas['ToolSummary'];
export type ToolAnnotations = Schemas['ToolAnnotations'];
export type JsonSchemaObject = Schemas['JsonSchemaObject'];
export type Category = Schemas['Category'];
export type CategoryList = Schemas['CategoryList'];
export type ServerPage = Schemas['ServerPage'];
export type ToolPage = Schemas['ToolPage'];
export type Health = Schemas['Health'];
export type UpstreamRecord = Schemas['UpstreamRecord'];
export type TrustReport = Schemas['TrustReport'];
export type ToolHistory = Schemas['ToolHistory'];
export type ToolChange = Schemas['ToolChange'];
export type ToolFinding = Schemas['ToolFinding'];
export type ToolDefinition = Schemas['ToolDefinition'];
export type ToolDefinitionRecord = Schemas['ToolDefinitionRecord'];
export type Comparison = Schemas['Comparison'];
export type InstallInstructions = Schemas['InstallInstructions'];
export type InstallClient = Schemas['InstallClient'];
export type StatusReport = Schemas['StatusReport'];
export type Readiness = Schemas['Readiness'];

/** Every operationId in the contract. */
export type OperationId = keyof operations;
