/**
 * `boulder-agent/sdk/pi`: boulder in a program that runs pi through its SDK
 * (`createAgentSession` from `@earendil-works/pi-coding-agent`). pi's SDK
 * sessions load no extensions of their own; an inline extension factory
 * does: `new DefaultResourceLoader({ extensionFactories: [boulderExtension] })`.
 * It is the extension `boulder install pi` installs, unchanged: the same
 * handlers, todo tools and `/boulder` command.
 *
 * The types are boulder's own (`adapters/pi/pi-api.ts`): boulder builds and
 * runs without pi (pi needs Node 22); `test/harnesses/pi-api-compat.ts`
 * checks them against the pinned pi's declarations.
 */
import boulderPiExtension from "../adapters/pi/extension.js";
import type { PiApi } from "../adapters/pi/pi-api.js";

export type { PiApi, PiContext, PiEvents } from "../adapters/pi/pi-api.js";

/** pi's `ExtensionFactory` for boulder: put it in `extensionFactories`. */
export const boulderExtension: (pi: PiApi) => void = boulderPiExtension;
