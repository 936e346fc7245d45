/**
 * Memory as tools for a model: the Python client's fourteen tools (names, descriptions and
 * JSON schemas generated from `graphmem_client.tools` into `generated/tools.ts`, the one
 * source), in the formats of OpenAI, Anthropic and the Vercel AI SDK, and one dispatcher that
 * runs a model's call and answers in text, a failure included: it never throws.
 *
 * The namespace and key are the `Memory`'s: no tool takes them, so a model cannot reach
 * another user's memory.
 */

import { GraphmemError } from "./errors.js";
import { TOOL_DEFINITIONS } from "./generated/tools.js";
import type { Memory } from "./memory.js";
import type {
  Conflict, Entity, Episode, ErasurePlan, Fact, Hit, Provenance, Recall, Receipt, RecordResult,
  Remembered, Summary, Value,
} from "./models.js";
import { problems, withDefaults, type JsonSchema } from "./schema.js";

export type ToolName = (typeof TOOL_DEFINITIONS)[number]["name"];

/** One tool: its name, a description written for a model choosing tools, its JSON schema. */
export interface ToolDefinition {
  readonly name: ToolName;
  readonly description: string;
  readonly parameters: JsonSchema;
}

export const TOOLS: readonly ToolDefinition[] = TOOL_DEFINITIONS.map(
  ({ name, description, parameters }) => ({ name, description, parameters }));

/** What a tool call answers: text for the model, and whether it is an error. */
export interface ToolResult {
  text: string;
  isError: boolean;
}

/** The tools in the `tools: [...]` format of OpenAI chat completions. */
export function openaiTools(): { type: "function";
                                 function: { name: string; description: string;
                                             parameters: JsonSchema } }[] {
  return TOOLS.map(({ name, description, parameters }) =>
    ({ type: "function", function: { name, description, parameters } }));
}

/** The tools in the `tools: [...]` format of the Anthropic Messages API. */
export function anthropicTools(): { name: string; description: string;
                                    input_schema: JsonSchema }[] {
  return TOOLS.map(({ name, description, parameters }) =>
    ({ name, description, input_schema: parameters }));
}

/** A tool in the Vercel AI SDK's `tool()` shape, run against one `Memory`. */
export interface AiSdkTool<Schema> {
  description: string;
  inputSchema: Schema;
  execute: (input: unknown) => Promise<string>;
}

/**
 * The tools in the Vercel AI SDK's shape (`generateText({ tools })`), each answering in text
 * through the dispatcher. Without helpers, `inputSchema` is the plain JSON schema; pass the
 * SDK's own to get its objects: `aiSdkTools(memory, { tool, jsonSchema })` (from `"ai"`).
 */
export function aiSdkTools<Schema = JsonSchema, Tool = AiSdkTool<Schema>>(
  memory: Memory,
  helpers: {
    jsonSchema?: (schema: JsonSchema) => Schema;
    // The SDK's `tool` is generic over each tool's input type, which this adapter cannot
    // name without depending on the SDK: it takes any function of a definition.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    tool?: (definition: any) => Tool;
  } = {},
): Record<ToolName, Tool> {
  const toSchema = helpers.jsonSchema ?? ((schema: JsonSchema) => schema as Schema);
  const toTool = helpers.tool ?? ((definition: AiSdkTool<Schema>) => definition as Tool);
  return Object.fromEntries(TOOLS.map(({ name, description, parameters }) => {
    const definition: AiSdkTool<Schema> = {
      description, inputSchema: toSchema(parameters),
      execute: (input: unknown) => handleToolCall(memory, name, input),
    };
    return [name, toTool(definition)];
  })) as Record<ToolName, Tool>;
}

/** Run a model's tool call against `memory` and answer in text; never throws. `input` is
 * the call's JSON text (OpenAI) or the parsed object (Anthropic, the AI SDK). */
export async function handleToolCall(memory: Memory, name: string,
                                     input: unknown): Promise<string> {
  return (await dispatch(memory, name, input)).text;
}

/** `handleToolCall`, saying whether the answer is an error. */
export async function dispatch(memory: Memory, name: string, input: unknown): Promise<ToolResult> {
  const prepared = prepare(name, input);
  if ("isError" in prepared) return prepared;
  try {
    const result = await prepared.handler.call(memory, prepared.args);
    return { text: prepared.handler.render(result, prepared.args), isError: false };
  } catch (error) {  // the agent loop must go on: the model reads what went wrong
    return failed(name, error);
  }
}

type Args = Record<string, unknown>;

interface Handler<R> {
  call(memory: Memory, args: Args): Promise<R>;
  render(result: R, args: Args): string;
  /** A rule between arguments that a schema cannot say (told to the model in words). */
  check?(args: Args): string | null;
}

// Each handler's result type is checked where it is written, then erased for the table.
const handler = <R>(h: Handler<R>) => h as unknown as Handler<unknown>;
const text = (value: unknown) => value as string;
const optional = <T>(value: unknown) => value as T | undefined;

const HANDLERS: Readonly<Record<ToolName, Handler<unknown>>> = {
  recall: handler({
    call: (m, a) => m.recall(text(a["query"]), { budget: a["budget"] as number,
      ...only({ sessionId: a["session_id"], asOf: a["as_of"] }) }),
    render: (r: Recall) => r.text.trim() || "Memory holds nothing relevant to this.",
  }),
  search: handler({
    call: (m, a) => m.search(text(a["query"]), { limit: a["limit"] as number,
      ...only({ kinds: a["kinds"] }) }),
    render: (r: Hit[]) => r.map(hit).join("\n") || "No hits.",
  }),
  about: handler({
    call: (m, a) => m.about(text(a["entity"]), only({ validAt: a["valid_at"], asOf: a["as_of"] })),
    render: (r: Fact[], a) => r.length ? r.map(fact).join("\n")
      : a["valid_at"] || a["as_of"] ? `Memory held no facts about ${text(a["entity"])} then.`
        : `Memory holds no current facts about ${text(a["entity"])}.`,
  }),
  history: handler({
    call: (m, a) => m.history(text(a["subject"]), optional<string>(a["predicate"])),
    render: (r: Fact[], a) => r.map(version).join("\n") || "Memory has never held facts about "
      + `${a["predicate"] ? `${text(a["subject"])} ${text(a["predicate"])}` : text(a["subject"])}.`,
  }),
  remember: handler({
    call: (m, a) => m.remember(text(a["subject"]), text(a["predicate"]), a["object"] as Value,
      only({ evidence: a["evidence"], source: a["source"], validFrom: a["valid_from"],
             validTo: a["valid_to"], confidence: a["confidence"] })),
    render: (r: Remembered) => `${OUTCOMES[r.outcome] ?? r.outcome}: ${fact(r.fact)}`,
  }),
  record: handler({
    call: (m, a) => m.record((a["turns"] as Args[]).map((t) => ({
      content: text(t["content"]), role: text(t["role"]),
      ...only({ actor: t["actor"], occurredAt: t["occurred_at"] }) })),
      only({ sessionId: a["session_id"] })),
    render: (r: RecordResult) => `Recorded ${r.created} new turns (${r.duplicates} already `
      + `stored). Episode ids, usable as evidence: ${r.episodeIds.join(", ")}.`,
  }),
  why: handler({
    call: (m, a) => m.why(text(a["fact_id"])),
    render: (r: Provenance) => [
      fact(r.fact),
      ...section("Evidence", r.evidence.map(episode)),
      ...section("Cited by summaries", r.citedBy.map((s) => `${s.id}: ${s.text}`)),
      ...section("It replaced", r.supersedes.map(fact)),
      ...section("Replaced by", r.supersededBy.map(fact))].join("\n"),
  }),
  correct: handler({
    call: (m, a) => m.correct(text(a["fact_id"]), a["object"] as Value,
      { reason: text(a["reason"]), ...only({ evidence: a["evidence"] }) }),
    render: (r: Fact) => `Corrected; the old value is kept as history. Now: ${fact(r)}`,
  }),
  retract: handler({
    call: (m, a) => m.retract(text(a["fact_id"]), { reason: text(a["reason"]) }),
    render: (r: Fact) => `Retracted (kept as history): ${fact(r)}`,
  }),
  // Whole-namespace erasure is no tool: one prompt-injected call could erase a user's every
  // memory. The application offers it (`memory.forget({ namespace: true })`) behind its own
  // confirmation.
  forget: handler({
    check: (a) => (a["entity"] === undefined) === (a["episodes"] === undefined)
      ? "give exactly one of entity or episodes"
      : a["entity"] === undefined && (a["dry_run"] || a["mentions"] !== "keep")
        ? "mentions and dry_run go with entity" : null,
    call: (m, a): Promise<Receipt | ErasurePlan> => a["entity"] === undefined
      ? m.forget({ episodes: a["episodes"] as string[] })
      : a["dry_run"] ? m.forget({ entity: text(a["entity"]), mentions: a["mentions"] as never,
                                  dryRun: true })
        : m.forget({ entity: text(a["entity"]), mentions: a["mentions"] as never }),
    render: (r: Receipt | ErasurePlan) => "names" in r ? plan(r) : receipt(r),
  }),
  conflicts: handler({
    call: (m) => m.conflicts(),
    render: (r: Conflict[]) => r.map((c) => [
      `Conflict ${c.id}: ${c.subject} ${c.predicate}, candidates:`,
      ...c.candidates.map((f) => `- ${fact(f)}`)].join("\n")).join("\n") || "No open conflicts.",
  }),
  resolve_conflict: handler({
    call: (m, a) => m.resolve(text(a["conflict_id"]), text(a["keep"]),
                              { reason: text(a["reason"]) }),
    render: (r: Conflict) => {
      const kept = r.candidates.find((f) => f.id === r.kept);
      return `Conflict ${r.id} ${r.status.toLowerCase()}; kept: ${kept ? fact(kept) : r.kept}.`;
    },
  }),
  alias: handler({
    call: (m, a) => m.alias(text(a["entity"]), text(a["alias"])),
    render: (r: Entity) => `${r.name} is also called: ${r.aliases.join(", ")}.`,
  }),
  summary: handler({
    call: (m, a) => m.summary(text(a["session_id"])),
    render: (r: Summary | null, a) => r === null ? `No summary of session ${text(a["session_id"])} yet.`
      : `${r.text}${r.stale ? " (stale: what it covers has changed)" : ""}`,
  }),
};

const BY_NAME = new Map(TOOLS.map((tool) => [tool.name as string, tool]));

function prepare(name: string, input: unknown): ToolResult | { handler: Handler<unknown>; args: Args } {
  const tool = BY_NAME.get(name);
  if (tool === undefined) {
    return { text: `Error: there is no tool ${JSON.stringify(name)}. Memory tools: `
             + `${[...BY_NAME.keys()].join(", ")}.`, isError: true };
  }
  let args = input ?? {};
  if (typeof args === "string") {
    try {
      args = args.trim() ? JSON.parse(args) : {};
    } catch (error) {
      return { text: `Error: the arguments of ${name} are not valid JSON (${(error as Error).message}). `
               + "Call it again with a JSON object.", isError: true };
    }
  }
  const found = problems(tool.parameters, args);
  const chosen = HANDLERS[tool.name];
  const filled = found.length ? {} : withDefaults(tool.parameters, args as Args);
  const rule = found.length ? null : chosen.check?.(filled);
  if (found.length || rule) {
    return { text: `Error: invalid arguments for ${name}: ${found.join("; ") || `arguments: ${rule}`}. `
             + `Fix them and call ${name} again.`, isError: true };
  }
  return { handler: chosen, args: filled };
}

const ADVICE: Readonly<Record<string, string>> = {
  NOT_FOUND: "Check the id or name: about and search show what memory holds.",
  INVALID_INPUT: "Fix that argument and call again.",
  DUPLICATE_CONFLICT: "Something with that id already exists with other content.",
  UNAUTHENTICATED: "Memory is not available (the API key was refused); go on without it.",
  FORBIDDEN: "Memory refused this for this user; go on without it.",
};

function failed(name: string, error: unknown): ToolResult {
  if (error instanceof GraphmemError) {
    const field = error.field ? ` (argument ${error.field})` : "";
    const advice = error.retryable ? "It is temporary: try again shortly."
      : ADVICE[error.code] ?? "";
    return { text: `Error from ${name}: ${error.code}${field}: ${error.detail}. ${advice}`.trim(),
             isError: true };
  }
  const kind = error instanceof Error ? error.name : typeof error;
  return { text: `Error from ${name}: memory failed unexpectedly (${kind}). Go on without it.`,
           isError: true };
}

const OUTCOMES: Readonly<Record<string, string>> = {
  CREATED: "Remembered",
  EVIDENCE_ADDED: "Already known (evidence added)",
  SUPERSEDED: "Stored as history: memory holds a stronger or later value",
  DISPUTED: "Remembered, but it conflicts with another value (resolve_conflict settles it)",
};

/** The defined entries only: an argument the model left out is not passed on. */
function only(values: Args): Args {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined));
}

function minute(instant: string): string {
  return new Date(instant).toISOString().slice(0, 16).replace("T", " ");
}

function day(instant: string): string {
  return new Date(instant).toISOString().slice(0, 10);
}

function fact(f: Fact): string {
  const notes = [f.status.toLowerCase(), `confidence ${f.confidence}`, f.source.toLowerCase()];
  if (f.validFrom) notes.push(`from ${day(f.validFrom)}`);
  if (f.validTo) notes.push(`until ${day(f.validTo)}`);
  if (f.reason) notes.push(`reason: ${f.reason}`);
  if (f.openConflicts.length) notes.push(`open conflict ${f.openConflicts.join(", ")}`);
  return `${f.id}: ${f.text} (${notes.join("; ")})`;
}

/** A fact as one version in its history: believed from when, ended when, by whom, why. */
function version(f: Fact): string {
  let line = `${f.id}: ${f.text} (${f.status.toLowerCase()}`;
  if (f.recordedAt) line += `; believed from ${minute(f.recordedAt)}`;
  if (f.retractedAt) line += `; ended ${minute(f.retractedAt)}${f.endedBy ? ` by ${f.endedBy}` : ""}`;
  if (f.reason) line += `; reason: ${f.reason}`;
  return `${line})`;
}

function episode(e: Episode): string {
  const who = e.actor ? `${e.actor}, ` : "";
  const where = e.sessionId ? `, session ${e.sessionId}` : "";
  return `${e.id} (${who}${minute(e.occurredAt)}${where}): ${e.content}`;
}

function hit(h: Hit): string {
  if (h.fact) return `fact ${fact(h.fact)}`;
  if (h.episode) return `episode ${episode(h.episode)}`;
  return `${h.kind.toLowerCase()} ${h.id}: ${h.text}`;
}

function receipt(r: Receipt): string {
  const counts = Object.entries(r.counts).filter(([, count]) => count)
    .map(([kind, count]) => `${count} ${kind}`).join(", ");
  const check = r.verified ? "verified: nothing of it is left"
    : `NOT verified: ${r.remainingNodes} nodes and ${r.remainingSearchable} searchable items remain`;
  return `Erased ${counts || "nothing"} (receipt ${r.id}); ${check}.`;
}

/** A dry run as text: what erasing the entity would remove, nothing yet removed. */
function plan(p: ErasurePlan): string {
  const turns: Record<string, string> = { erase: "erased", redact: "each mention redacted" };
  return [
    `Dry run, nothing erased yet. Forgetting ${p.entity} (mentions: ${p.mentions}; names `
    + `matched as whole words: ${p.names.join(", ")}) would remove:`,
    ...section("Facts", p.facts.length ? p.facts.map((f) => `${f.id}: ${f.text}`) : ["none"]),
    ...section("Facts retracted (their only evidence goes)",
               p.factsRetracted.map((f) => `${f.id}: ${f.text}`)),
    ...section("Turns", p.turns.length ? p.turns.map((t) => `${t.id} (${minute(t.occurredAt)}, `
      + `${turns[t.action] ?? t.action}): ${t.excerpt}`) : ["none"]),
    ...section("Summaries withdrawn", p.summaries.map((s) => `${s.id}: ${s.excerpt}`)),
    "Call forget again without dry_run to erase it; it cannot be undone."].join("\n");
}

function section(title: string, lines: string[]): string[] {
  return lines.length ? [`${title}:`, ...lines.map((line) => `- ${line}`)] : [];
}
