/**
 * graphmem-client: a typed client for graphmem, a memory service for AI agents. `Memory` has
 * the Python client's calls; `tools` gives a model the same memory tools.
 */

export * from "./errors.js";
export { Memory, type MemoryOptions, type RememberOptions } from "./memory.js";
export type * from "./models.js";
export {
  TOOLS, aiSdkTools, anthropicTools, dispatch, handleToolCall, openaiTools,
  type AiSdkTool, type ToolDefinition, type ToolName, type ToolResult,
} from "./tools.js";
export type { JsonSchema } from "./schema.js";
