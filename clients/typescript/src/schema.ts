/**
 * Checks a model's tool arguments against the tools' JSON schemas (`generated/tools.ts`) and
 * fills in their defaults. Only the keywords those schemas use: the test suite fails when a
 * schema uses another (KEYWORDS), so a check is never skipped silently.
 */

export type JsonSchema = { readonly [keyword: string]: unknown };

/** Every keyword this checker understands. */
export const KEYWORDS = new Set([
  "type", "description", "properties", "required", "additionalProperties", "items", "enum",
  "default", "minLength", "minItems", "minimum", "maximum", "format", "anyOf",
]);

/** The problems with `value` (empty when it fits), each as "path: what is wrong". */
export function problems(schema: JsonSchema, value: unknown, path = ""): string[] {
  const where = path || "arguments";
  if (Array.isArray(schema["anyOf"])) {
    const options = schema["anyOf"] as JsonSchema[];
    return options.some((option) => problems(option, value, path).length === 0) ? []
      : [`${where}: must be ${options.map(describe).join(" or ")}`];
  }
  if (schema["type"] !== undefined && !fitsType(String(schema["type"]), value)) {
    return [`${where}: must be ${describe(schema)}`];
  }
  if (Array.isArray(schema["enum"]) && !schema["enum"].includes(value)) {
    return [`${where}: must be one of ${schema["enum"].map((v) => JSON.stringify(v)).join(", ")}`];
  }
  if (typeof value === "string") return stringProblems(schema, value, where);
  if (typeof value === "number") return numberProblems(schema, value, where);
  if (Array.isArray(value)) return arrayProblems(schema, value, path);
  if (typeof value === "object" && value !== null) {
    return objectProblems(schema, value as Record<string, unknown>, path);
  }
  return [];
}

function fitsType(type: string, value: unknown): boolean {
  switch (type) {
    case "string": return typeof value === "string";
    case "integer": return Number.isInteger(value);
    case "number": return typeof value === "number" && Number.isFinite(value);
    case "boolean": return typeof value === "boolean";
    case "array": return Array.isArray(value);
    case "object": return typeof value === "object" && value !== null && !Array.isArray(value);
    case "null": return value === null;
    default: return false;
  }
}

function describe(schema: JsonSchema): string {
  const type = String(schema["type"] ?? "a value");
  const article = /^[aeiou]/.test(type) ? "an" : "a";
  if (type === "string" && schema["format"] === "date-time") {
    return "an ISO 8601 date-time, e.g. 2026-03-01T09:00:00Z";
  }
  return type === "a value" ? type : `${article} ${type}`;
}

const DATE_TIME = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

function stringProblems(schema: JsonSchema, value: string, where: string): string[] {
  if (typeof schema["minLength"] === "number" && value.length < schema["minLength"]) {
    return [`${where}: must have at least ${schema["minLength"]} character`];
  }
  if (schema["format"] === "date-time"
      && (!DATE_TIME.test(value) || Number.isNaN(Date.parse(value.replace(" ", "T"))))) {
    return [`${where}: must be ${describe(schema)}`];
  }
  return [];
}

function numberProblems(schema: JsonSchema, value: number, where: string): string[] {
  if (typeof schema["minimum"] === "number" && value < schema["minimum"]) {
    return [`${where}: must be at least ${schema["minimum"]}`];
  }
  if (typeof schema["maximum"] === "number" && value > schema["maximum"]) {
    return [`${where}: must be at most ${schema["maximum"]}`];
  }
  return [];
}

function arrayProblems(schema: JsonSchema, value: unknown[], path: string): string[] {
  if (typeof schema["minItems"] === "number" && value.length < schema["minItems"]) {
    return [`${path || "arguments"}: must have at least ${schema["minItems"]} item`];
  }
  const items = schema["items"] as JsonSchema | undefined;
  return items ? value.flatMap((item, index) => problems(items, item, `${path}.${index}`)
    .map((problem) => problem.replace(/^\./, ""))) : [];
}

function objectProblems(schema: JsonSchema, value: Record<string, unknown>,
                        path: string): string[] {
  const properties = (schema["properties"] ?? {}) as Record<string, JsonSchema>;
  const at = (name: string) => (path ? `${path}.${name}` : name);
  const found: string[] = [];
  for (const name of (schema["required"] ?? []) as string[]) {
    if (value[name] === undefined) found.push(`${at(name)}: is required`);
  }
  for (const [name, item] of Object.entries(value)) {
    const property = properties[name];
    if (property === undefined) {
      if (schema["additionalProperties"] === false) found.push(`${at(name)}: is not an argument`);
    } else if (item !== null || !isOptional(schema, name)) {  // null: left out, as for pydantic
      found.push(...problems(property, item, at(name)));
    }
  }
  return found;
}

function isOptional(schema: JsonSchema, name: string): boolean {
  return !((schema["required"] ?? []) as string[]).includes(name);
}

/** `value` with the schema's defaults filled in and nulls of optional arguments left out. */
export function withDefaults(schema: JsonSchema,
                             value: Record<string, unknown>): Record<string, unknown> {
  const properties = (schema["properties"] ?? {}) as Record<string, JsonSchema>;
  const filled: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(properties)) {
    const given = value[name];
    if (given !== undefined && given !== null) filled[name] = given;
    else if (property["default"] !== undefined) filled[name] = property["default"];
  }
  return filled;
}

/** Every keyword a schema uses, at any depth (property names are not keywords). */
export function keywords(schema: JsonSchema): Set<string> {
  const found = new Set<string>();
  for (const [keyword, value] of Object.entries(schema)) {
    found.add(keyword);
    const children = keyword === "properties" ? Object.values(value as object)
      : keyword === "items" ? [value] : keyword === "anyOf" ? value as unknown[] : [];
    for (const child of children) for (const inner of keywords(child as JsonSchema)) found.add(inner);
  }
  return found;
}
