/** `boulder config [--json] [--json-schema]`: the effective config and where each value came from. */
import type { Command } from "commander";
import { configJsonSchema } from "../../core/config.js";
import { configSources } from "../../engine/config-loader.js";
import { configRows, renderConfig } from "../../present/render/config.js";
import type { Cli } from "../context.js";
import { EXIT } from "../exit-codes.js";

export function registerConfig(program: Command, cli: Cli): void {
	program
		.command("config")
		.description("show the effective config and where each value came from")
		.option("--json", "machine-readable output")
		.option("--json-schema", "print the config's JSON Schema (for editors)")
		.action(async (options: { json?: boolean; jsonSchema?: boolean }) => {
			if (options.jsonSchema) {
				cli.out(JSON.stringify(configJsonSchema(), null, 2));
				cli.exitCode = EXIT.ok;
				return;
			}
			const workspace = await cli.openWorkspace();
			const sources = configSources(workspace);
			const files = workspace.layers.map((layer) => layer.source);
			const rows = configRows(workspace.config as Record<string, unknown>, sources);
			cli.out(
				options.json
					? JSON.stringify({ worktree: workspace.worktree, config: workspace.config, sources, files }, null, 2)
					: renderConfig(rows, files, cli.colors()),
			);
			cli.exitCode = EXIT.ok;
		});
}
