import { MockAgent } from "undici";
import type { ExchangeTokenOptions } from "../../../sdk/index.js";
import { exchangeToken } from "../../../sdk/index.js";

/** A MockAgent that refuses real connections, with the interceptable pool of the test origin. */
export function mockApi(origin = "https://irv.test") {
  const agent = new MockAgent();
  agent.disableNetConnect();
  return { agent, origin, pool: agent.get(origin) };
}

/** An AIP-193 error body. */
export function status(code: number, message: string, details: object[] = []) {
  return { code, message, details };
}

export const GROUP = {
  uid: "0123456789abcdef0123456789abcdef01234567/0123456789abcdef",
  name: "team-a",
  description: "Team A",
  resourceLimits: {},
  verified: false,
  createTime: "2026-11-21T10:00:00.000Z",
  updateTime: "2026-11-21T10:00:00.000Z",
};

export const noSleep = async () => {};

/** The exchange request of {@link mockExchange}. */
export const EXCHANGE = "/auth/sts/exchange?aud=https%3A%2F%2Firv.test&identity=org%2Fci";

/** An identity exchange at the mock API's `/auth`, assuming `org/ci`. */
export function mockExchange(
  api: { agent: MockAgent; origin: string },
  options: Partial<ExchangeTokenOptions> = {},
) {
  return exchangeToken({
    authUrl: `${api.origin}/auth`,
    baseUrl: api.origin,
    identity: "org/ci",
    identityToken: "oidc-token-value",
    dispatcher: api.agent,
    ...options,
  });
}
