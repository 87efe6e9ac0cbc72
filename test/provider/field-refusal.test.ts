/**
 * When a 400 on `attributes` names a field the release lacks (`provider/client/field-refusal.ts`),
 * and when it does not: the answers are the controller's words (controller/http/target-body.ts,
 * Boundary's TS validateCreateRequest and updateInRepo), the releases the release table's.
 */
import { BoundaryApiError, UnexpectedAnswerError } from "../../provider/client/errors";
import { attributesRefusal } from "../../provider/client/field-refusal";
import { RELEASES, release } from "../../wire/releases";

const refused = (fields: { name: string; description: string }[], message = "Error in provided request.") =>
  new BoundaryApiError("POST", "/v1/targets", 400, "InvalidArgument", message, fields);
const ATTRIBUTES = refused([{ name: "attributes", description: "Attribute fields do not match the expected format." }]);
const withClientPort = { attributes: { default_port: 22, default_client_port: 15432 } };
const current = RELEASES.filter((r) => r.generation === "current");

test("a client port refused on attributes: the releases before 0.13 explain it, and defaultClientPort is named", () => {
  const got = attributesRefusal(ATTRIBUTES, withClientPort, current);
  expect(got?.releases.map((r) => r.release)).toEqual(["0.5", "0.6", "0.7", "0.8", "0.9", "0.10", "0.11", "0.12"]);
  expect(got?.fields).toEqual(["defaultClientPort"]);
});

test("a PATCH of 0.4–0.7 refuses attributes in a field-less message: the same lesson", () => {
  const patch = new BoundaryApiError("PATCH", "/v1/targets/ttcp_1", 400, "InvalidArgument", "Provided attributes don't match expected format.");
  expect(attributesRefusal(patch, withClientPort, current)?.fields).toEqual(["defaultClientPort"]);
});

test("nothing is learned where every release it may be has every attribute sent, the body sent none, or the 400 is about another field", () => {
  expect(attributesRefusal(ATTRIBUTES, withClientPort, [release("0.13"), release("0.21")])).toBeUndefined();
  expect(attributesRefusal(ATTRIBUTES, { attributes: { default_port: 22 } }, current)).toBeUndefined();
  expect(attributesRefusal(refused([{ name: "name", description: "This field is required." }]), withClientPort, current)).toBeUndefined();
  expect(
    attributesRefusal(new UnexpectedAnswerError("POST", "/v1/targets", "http://127.0.0.1/v1/targets", 400, "text/html", "attributes"), withClientPort, current),
  ).toBeUndefined();
});
