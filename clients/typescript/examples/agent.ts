// A memory agent's loop, with a scripted model in place of an LLM (no key, no network): the
// model calls memory tools, handleToolCall runs each one and answers in text, even a failure.
// Run: GRAPHMEM_URL=... GRAPHMEM_KEY=... GRAPHMEM_NAMESPACE=acme/user-42 node build/examples/agent.js
import { Memory, handleToolCall, openaiTools } from "graphmem-client";

type Call = { id: string; type: "function"; function: { name: string; arguments: string } };
type Message = { role: string; content: string; tool_call_id?: string; tool_calls?: Call[] };
const call = (id: string, name: string, args: object): Call =>
  ({ id, type: "function", function: { name, arguments: JSON.stringify(args) } });

// Stands in for `openai.chat.completions.create({ model, messages, tools })`.
function scriptedModel(messages: Message[], tools: ReturnType<typeof openaiTools>): Message {
  const last = messages.at(-1)!;
  if (last.role === "tool") return { role: "assistant", content: `Noted. ${last.content}` };
  if (!tools.some((tool) => tool.function.name === "remember")) throw new Error("no memory tools");
  return { role: "assistant", content: "", tool_calls: [
    call("1", "remember", { subject: "user", predicate: "lives_in", object: "Porto" }),
    call("2", "why", { fact_id: "fact_that_does_not_exist" }),  // an error, as text
    call("3", "recall", { query: last.content })] };
}

const memory = new Memory();  // GRAPHMEM_URL, GRAPHMEM_KEY, GRAPHMEM_NAMESPACE
const messages: Message[] = [{ role: "user", content: "I moved to Porto last month." }];
for (;;) {
  const reply = scriptedModel(messages, openaiTools());
  messages.push(reply);
  if (!reply.tool_calls?.length) break;
  for (const { id, function: { name, arguments: args } } of reply.tool_calls) {
    const content = await handleToolCall(memory, name, args);
    console.log(`${name} -> ${content.split("\n")[0]}`);
    messages.push({ role: "tool", tool_call_id: id, content });
  }
}
console.log(`assistant: ${messages.at(-1)!.content}`);
