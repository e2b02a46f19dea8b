export type { RpcCall, RpcRegistry } from "./api-rpcs.js";
export { listQuery, registerApiRpcs, SERVICE_KINDS, verbOf } from "./api-rpcs.js";
export { faultToConnectError, toConnectError } from "./grpc-faults.js";
export { createGrpcServer } from "./grpc-server.js";
export type { ProtocolDispatch } from "./protocol-dispatch.js";
export { attachProtocolDispatch, HTTP2_PREFACE, protocolOfPreface } from "./protocol-dispatch.js";
export { answerReflection, registerReflection } from "./reflection-service.js";
export {
  API_FILES,
  API_SERVICES,
  DETAIL_TYPES,
  EVENTS_OPTION,
  EventAudience,
  WIRE_FILES,
  WIRE_REGISTRY,
} from "./wire-types.js";
