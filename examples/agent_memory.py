"""An agent's memory in one loop, with the Python client: recall before answering, record the
turn, remember what the user states (with the turn as evidence), ask why, let memory keep the
history when the user changes jobs, and forget on request.

Run `bin/serve`, then:
  GRAPHMEM_KEY=$(cat .graphmem/dev-admin-key) .venv/bin/python examples/agent_memory.py
(an agent needs only the client: pip install ./clients/python)
"""

from graphmem_client import Memory

memory = Memory(namespace="demo/user-42")  # GRAPHMEM_URL and GRAPHMEM_KEY from the environment


def turn(ext: str, at: str, said: str, session: str = "chat-1") -> str:
    context = memory.recall(said, session_id=session).text  # what to put in the prompt
    reply = f"(your model answers here, given {len(context)} characters of memory)"
    memory.record([{"external_id": ext, "role": "user", "actor": "Dana", "content": said,
                    "occurred_at": at},
                   {"external_id": f"{ext}-reply", "role": "assistant", "content": reply,
                    "occurred_at": at}], session_id=session)
    return reply


turn("u1", "2026-05-01T09:00:00Z", "Hi! I'm Dana. I just started a new job at Acme Robotics.")
turn("u2", "2026-05-01T09:01:00Z", "Motion planning. Also, I moved to Lisbon last month.")
acme = memory.remember("Dana", "works_at", "Acme Robotics", evidence=["u1"])
memory.remember("Dana", "lives_in", "Lisbon", evidence=["u2"], confidence=0.9)
why = memory.why(acme.fact.id)
print("why does the agent believe:", why.fact.text, "<-", why.evidence[0].content)

# Months later Dana changes jobs: the new fact supersedes the old one, which stays as history.
turn("u3", "2026-09-02T10:00:00Z", "I switched jobs in August: I'm at Globex now.", "chat-2")
memory.remember("Dana", "works_at", "Globex", evidence=["u3"], valid_from="2026-08-01T00:00:00Z")
print("memory now:", memory.recall("Where does Dana work?").text.replace("\n", " | "))
for newer in memory.why(acme.fact.id).superseded_by:
    print(f"{newer.object} superseded {acme.fact.object} (until {newer.valid_from:%Y-%m-%d})")

receipt = memory.forget(entity="Lisbon")  # "forget where I live": erased, with a receipt
print("forgotten:", receipt.counts)
