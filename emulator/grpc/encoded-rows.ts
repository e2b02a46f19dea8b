import type { DescMessage, JsonObject } from "@bufbuild/protobuf";
import { toBinary } from "@bufbuild/protobuf";
import type { RowAnswers } from "../resources/index.js";
import { wireMessage } from "./wire-objects.js";

/**
 * One kind's rows encoded as one message type: a row's stored text to the message's bytes.
 *
 * @example
 * const groupBytes = encodedRows.of("groups", GroupSchema);
 * const got = service.getStored(caller, "groups", uid);
 * groupBytes(got, got.stored); // the Group, as protobuf bytes
 */
export type RowEncoder = (answers: RowAnswers, stored: string) => Uint8Array;

/**
 * The binary encodings of rows, kept by their stored text (issue 47: decoding a page's JSON and
 * encoding its messages were most of a gRPC LIST's cost, where HTTP answers the stored text as it is).
 * Only rows whose answer is a function of their stored text alone are kept ({@link RowAnswers}
 * `storedAlone`): the same text of the same kind as the same message type is the same bytes, so a
 * write, which stores a new text, needs no invalidation; a stale entry is merely never asked for again.
 * Other rows (an output hook may depend on the caller or on other rows) are encoded on every answer.
 *
 * At most `limit` rows are kept (10,000 by default: a LIST page over the bench's 10,000 groups, or a
 * stack of a few thousand resources, stays within it; each entry holds a row's text and bytes, well
 * under a kilobyte together for most kinds, so some megabytes in all). When full it is emptied rather
 * than kept in least-recently-used order: the order would cost a Map update on every hit, on the path
 * this exists to make cheap, and the entries are filled again at the cost of one encoding each.
 *
 * @example
 * const encodedRows = new EncodedRows();
 * const groupBytes = encodedRows.of("groups", GroupSchema);
 */
export class EncodedRows {
  private readonly byType = new Map<string, Map<string, Uint8Array>>();
  private size = 0;

  constructor(private readonly limit = 10_000) {}

  /**
   * The encoder of a kind's rows as a message type (the same map for every rpc answering it).
   *
   * @example
   * const groupBytes = encodedRows.of("groups", GroupSchema);
   */
  of(kind: string, schema: DescMessage): RowEncoder {
    // By kind too: the wire form is the kind's (its write-only fields), not only the message's.
    const key = `${kind} ${schema.typeName}`;
    let kept = this.byType.get(key);
    if (kept === undefined) {
      kept = new Map();
      this.byType.set(key, kept);
    }
    const map = kept;
    return (answers, stored) => {
      if (!answers.storedAlone) return encodeMessage(schema, answers.output(stored));
      const hit = map.get(stored);
      if (hit !== undefined) return hit;
      const bytes = encodeMessage(schema, answers.output(stored));
      if (this.size >= this.limit) this.clear();
      map.set(stored, bytes);
      this.size++;
      return bytes;
    };
  }

  /**
   * How many encodings are kept.
   *
   * @example
   * encodedRows.count(); // 200 after a first page of 200 groups
   */
  count(): number {
    return this.size;
  }

  private clear(): void {
    for (const map of this.byType.values()) map.clear();
    this.size = 0;
  }
}

/**
 * A message's binary encoding from its wire object (its protojson form): built by
 * {@link wireMessage}, encoded by protobuf-es's `toBinary`.
 *
 * @example
 * encodeMessage(GroupSchema, { uid, name: "eng" });
 */
export function encodeMessage(schema: DescMessage, json: JsonObject | Record<string, unknown>): Uint8Array {
  try {
    return toBinary(schema, wireMessage(schema, json as JsonObject));
  } catch (e) {
    // The service core answered something the published message cannot hold: a bug of ours.
    throw new Error(`the answer does not decode as ${schema.typeName}: ${(e as Error).message}`);
  }
}
