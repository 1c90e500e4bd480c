/**
 * One plugin instance: what the plugin function returns to OpenCode (or to
 * Kilo Code, its fork: `host.ts`). It finds
 * (or creates) the hub of its project folder in the process-wide registry
 * and forwards every hook to it, so two instances of boulder in one process
 * (listed in two configs, by path and by package name) act as one.
 *
 * Contract: never throws into OpenCode; when the hub cannot be set up, the
 * instance returns no hooks and OpenCode runs as if boulder were absent.
 */
import type { Hooks, PluginInput } from "@opencode-ai/plugin";
import { fileWorkspace } from "../shared/workspace.js";
import { type OpencodeClient, sdkApi } from "./api.js";
import { OPENCODE_HOST, type PluginHost } from "./host.js";
import { Hub, type HubHooks } from "./hub.js";
import { type HubHandle, shared } from "./shared.js";

interface RegisteredHub extends HubHandle {
	hooks(): HubHooks;
	readonly isClosed: boolean;
}

export async function startInstance(
	input: Pick<PluginInput, "client" | "directory">,
	host: PluginHost = OPENCODE_HOST,
): Promise<Hooks> {
	try {
		const hub = hubFor(input.directory, () => {
			const created: Hub = new Hub({
				directory: input.directory,
				host,
				api: sdkApi(input.client as OpencodeClient),
				workspace: fileWorkspace(input.directory, (warning) => {
					void created.recordError(null, "opening boulder's state", new Error(warning));
				}),
			});
			return created;
		});
		const release = hub.attach();
		const hooks = hub.hooks();
		return {
			event: hooks.event,
			config: hooks.config as Hooks["config"],
			"chat.message": hooks["chat.message"] as Hooks["chat.message"],
			"tool.execute.before": hooks["tool.execute.before"],
			"tool.execute.after": hooks["tool.execute.after"] as Hooks["tool.execute.after"],
			"command.execute.before": hooks["command.execute.before"],
			"experimental.session.compacting": hooks["experimental.session.compacting"],
			dispose: async () => release(),
		};
	} catch (error) {
		process.stderr.write(`boulder: the ${host.title} plugin could not start: ${String(error)}\n`);
		return {};
	}
}

/** The live hub of this folder, or a new one made by `create` (a closed hub is replaced). */
function hubFor(directory: string, create: () => RegisteredHub): RegisteredHub {
	const { hubs } = shared();
	const existing = hubs.get(directory) as RegisteredHub | undefined;
	if (existing && !existing.isClosed) return existing;
	const hub = create();
	hubs.set(directory, hub);
	return hub;
}
