/**
 * The OpenCode adapter's part of the CLI: what `boulder install opencode` and
 * `boulder uninstall opencode` do and print. The CLI's `install` command
 * dispatches here through its per-harness table (`src/cli/commands/install.ts`).
 */
import type { Cli } from "../../cli/context.js";
import { EXIT } from "../../cli/exit-codes.js";
import { installReportLines } from "../shared/install-report.js";
import { type InstallReport, type InstallScope, installOpenCode, uninstallOpenCode } from "./install.js";
import { INSTALL_TEXT } from "./messages.js";

export async function runOpenCodeInstall(
	cli: Cli,
	action: "install" | "uninstall",
	scope: InstallScope,
): Promise<void> {
	const place = { cwd: cli.io.cwd, env: cli.io.env, scope };
	const report = action === "install" ? await installOpenCode(place) : await uninstallOpenCode(place);
	printReport(cli, report, scope);
	cli.exitCode = EXIT.ok;
}

function printReport(cli: Cli, report: InstallReport, scope: InstallScope): void {
	const extra = scope === "project" ? [INSTALL_TEXT.machineLocal] : [];
	cli.out(installReportLines(report, INSTALL_TEXT, cli.colors(), extra).join("\n"));
}
