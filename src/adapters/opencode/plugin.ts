/**
 * The module OpenCode loads (`exports["./server"]` of boulder-agent, or the
 * `file://` path `boulder install opencode` writes). OpenCode calls every
 * export of this module as a plugin, so it exports exactly one function and
 * nothing else; all the work is in the sibling modules.
 *
 * Kilo Code loads the same package export for a package-name entry, so the
 * host is read from the process (`hostFromEnv`); `kilo-plugin.ts` is the
 * file a Kilo path entry names, with the host fixed.
 */
import type { Plugin } from "@opencode-ai/plugin";
import { hostFromEnv } from "./host.js";
import { startInstance } from "./instance.js";

export const BoulderPlugin: Plugin = async (input) => startInstance(input, hostFromEnv(process.env));
