// What the tests share: the services tests/clients/test_typescript.py started for them (a
// real `graphmem serve`, and one with small caps and a rate limit), a fresh namespace per
// test, and a fetch that counts what it sends.

import { Memory, type MemoryOptions } from "graphmem-client";

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run these tests through tests/clients/test_typescript.py`);
  return value;
}

/** The service's GraphQL endpoint and an admin key. */
export const ENDPOINT = required("GRAPHMEM_URL");
export const KEY = required("GRAPHMEM_KEY");
/** A service with GRAPHMEM_MAX_BATCH=50, GRAPHMEM_MAX_BODY_BYTES=65536 and 30 requests a
 * minute per key, and a key of its own for exhausting that rate. */
export const LIMITED_URL = required("GRAPHMEM_TEST_LIMITED_URL");
export const LIMITED_KEY = required("GRAPHMEM_TEST_LIMITED_KEY");
/** A key granted only `elsewhere/*`. */
export const OTHER_KEY = required("GRAPHMEM_TEST_OTHER_KEY");
/** Every namespace a test uses lies under it; the Python side deletes them afterwards. */
export const PREFIX = required("GRAPHMEM_TEST_NAMESPACE");

let made = 0;

export function freshNamespace(): string {
  made += 1;
  return `${PREFIX}/${process.pid}-${made}`;
}

export function fresh(options: MemoryOptions = {}): Memory {
  return new Memory({ url: ENDPOINT, key: KEY, namespace: freshNamespace(), ...options });
}

/** The global fetch, counting the requests it sends and noting the status of each answer
 * (nothing else changes). */
export function counting(): { fetch: typeof fetch; sent: () => number; statuses: number[] } {
  let sent = 0;
  const statuses: number[] = [];
  return {
    fetch: async (input, init) => {
      sent += 1;
      const response = await fetch(input, init);
      statuses.push(response.status);
      return response;
    },
    sent: () => sent,
    statuses,
  };
}
