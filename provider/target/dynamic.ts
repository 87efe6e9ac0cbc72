/**
 * The entry the serialized provider proxy loads inside Pulumi's dynamic-provider host
 * (`require("pulumi-boundary/dynamic")`). One TargetProvider per proxy object, kept here rather than
 * on the proxy so that no runtime state (a configured token) can ever be serialized into state.
 */
import { TargetProvider } from "./provider";

const providers = new WeakMap<object, TargetProvider>();

export function providerFor(proxy: object): TargetProvider {
  let p = providers.get(proxy);
  if (!p) providers.set(proxy, (p = new TargetProvider()));
  return p;
}

export { TargetProvider } from "./provider";
