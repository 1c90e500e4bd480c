/**
 * The module OpenCode loads (`exports["./server"]` of boulder-agent, or the
 * `file://` path `boulder install opencode` writes). OpenCode calls every
 * export of this module as a plugin, so it exports exactly one function and
 * nothing else; all the work is in the sibling modules.
 */
import type { Plugin } from "@opencode-ai/plugin";
import { startInstance } from "./instance.js";

export const BoulderPlugin: Plugin = async (input) => startInstance(input);
