/**
 * The module a Kilo Code user-scope entry names (`boulder install kilo
 * --user` writes its `file://` path): boulder's OpenCode plugin, hosted by
 * Kilo. Kilo calls every export of this module as a plugin, so it exports
 * exactly one function.
 */
import type { Plugin } from "@opencode-ai/plugin";
import { KILO_HOST } from "./host.js";
import { startInstance } from "./instance.js";

export const BoulderPlugin: Plugin = async (input) => startInstance(input, KILO_HOST);
