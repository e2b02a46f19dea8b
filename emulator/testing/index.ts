export type { ReceivedEvent, WebhookSink, WebhookSinkOptions } from "./webhook-sink.js";
export { startWebhookSink } from "./webhook-sink.js";
