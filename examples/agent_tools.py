"""Memory as tools for a model: give it graphmem's tool definitions (OpenAI or Anthropic
format, one source with the MCP server) and run whatever it calls with one dispatcher.

The model's turn is scripted here, so the example runs without an LLM: it is what a model given
these tools did when Dana said "I moved to Porto, and I'm at Globex now, not Acme."
Run `bin/serve`, then:
  GRAPHMEM_KEY=$(cat .graphmem/dev-admin-key) .venv/bin/python examples/agent_tools.py
"""

from graphmem_client import Memory
from graphmem_client.tools import anthropic_tools, handle_tool_call, openai_tools

memory = Memory(namespace="demo/user-43")
names = [tool["function"]["name"] for tool in openai_tools()]
print(len(names), "tools for OpenAI:", ", ".join(names))
print(len(anthropic_tools()), "tools for Anthropic (same definitions)")

scripted_model_calls = [  # (tool name, arguments as the model sends them: JSON text)
    ("record", '{"turns": [{"role": "user", "actor": "Dana", "content": "I moved to Porto, '
               'and I\'m at Globex now, not Acme."}], "session_id": "chat-1"}'),
    ("remember", '{"subject": "Dana", "predicate": "lives_in", "object": "Porto"}'),
    ("remember", '{"subject": "Dana", "predicate": "works_at", "object": "Globex"}'),
    ("about", '{"entity": "Dana"}'),
    ("why", '{"fact_id": "fact_does_not_exist"}'),  # a mistake: the answer says what to do
]
for name, arguments in scripted_model_calls:
    print(f"\n{name}({arguments}) ->\n{handle_tool_call(memory, name, arguments)}")
