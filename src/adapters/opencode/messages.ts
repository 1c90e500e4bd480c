/**
 * What the OpenCode adapter says to people: toasts, the `/boulder` command's
 * declaration and answers, and the installer's messages. The nudges
 * themselves are the core's prompts.
 */

import { entryInstallText } from "../shared/install-messages.js";
import type { PluginHost } from "./host.js";

export const COMMAND_NAME = "boulder";

export const COMMAND_DESCRIPTION = "boulder: status, stop, go or why (answered without a model turn)";

/**
 * The template OpenCode would send to the model if boulder's plugin did not
 * answer the command itself: it only runs when the plugin is not working.
 */
export const COMMAND_TEMPLATE = `The user ran "/boulder $ARGUMENTS", but boulder's plugin did not answer it, so it is probably not running. Tell the user this in one sentence and suggest running \`boulder doctor\` in a terminal. Do nothing else.`;

export const TEXT = {
	countdown: (ms: number, open: number) =>
		`continuing in ${Math.max(1, Math.round(ms / 1000))}s — ${open} item${open === 1 ? "" : "s"} left (/boulder stop cancels)`,
	complete: (text: string) => text,
	limit: (detail: string) => `not continuing — ${detail}. /boulder why explains; your next message starts afresh.`,
	configProblem: (message: string) => `not continuing: ${message}`,
} as const;
/** Logged by OpenCode when boulder stops a `/boulder` command from reaching the model. */
export const ANSWERED_ERROR =
	"boulder answered /boulder in the session itself; this error only keeps OpenCode from sending the command to the model";

/** What the installer says, in the words of the harness it installs into (OpenCode or Kilo Code). */
export function installText(host: Pick<PluginHost, "title">) {
	const { title } = host;
	return {
		...entryInstallText({ title, thing: "plugin", file: "config", list: "plugin", syntax: "JSON or JSONC" }),
		restart: `${title} loads plugins when it starts: restart it to pick the change up.`,
		byName: (folder: string, root: string) =>
			`The entry is the package name, which names no path of this machine. ${title} loads it from its package cache, now linked to this copy of boulder (${folder} → ${root}), without the npm registry. Teammates: install boulder-agent (globally or as a devDependency) and run this command once; without the link ${title} tries to download boulder-agent from the npm registry.`,
		byNameDownloaded: (folder: string) =>
			`The entry is the package name, which names no path of this machine. ${title} already keeps a copy of boulder-agent it downloaded (${folder}) and loads that one; \`boulder doctor\` says which version it is.`,
	};
}

export const INSTALL_TEXT = installText({ title: "OpenCode" });
