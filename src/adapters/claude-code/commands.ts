/**
 * The Claude Code adapter's CLI commands, registered in the CLI's command
 * table like any other:
 *
 *   boulder install claude-code [--local | --project | --user]
 *   boulder uninstall claude-code [--local | --project | --user]
 *   boulder hook claude-code <Event>     (what the hooks run; reads stdin)
 *
 * Installed hooks run the bundled hook program directly (faster than the
 * CLI); `boulder hook` is the same code, for a global install or a person
 * trying an input by hand.
 */
import type { Command } from "commander";
import type { Cli } from "../../cli/context.js";
import { EXIT } from "../../cli/exit-codes.js";
import { BoulderError } from "../../core/errors.js";
import { installReportLines } from "../shared/install-report.js";
import { HARNESS } from "./hook-input.js";
import {
	INSTALL_SCOPES,
	type InstallReport,
	type InstallScope,
	installClaudeCode,
	uninstallClaudeCode,
} from "./install.js";
import { INSTALL_TEXT } from "./messages.js";
import { runClaudeCodeHook } from "./run-hook.js";

type ScopeFlags = Partial<Record<InstallScope, boolean>>;

const HARNESSES = [HARNESS];

export function registerInstall(program: Command, cli: Cli): void {
	withScopes(program.command("install").description("add boulder's hooks to a harness's settings"))
		.argument("<harness>", `the harness: ${HARNESSES.join(", ")}`)
		.action(async (harness: string, flags: ScopeFlags) => {
			const report = await installClaudeCode({ ...place(cli), scope: scopeOf(harness, flags) });
			printReport(cli, report);
			cli.exitCode = EXIT.ok;
		});
}

export function registerUninstall(program: Command, cli: Cli): void {
	withScopes(program.command("uninstall").description("remove boulder's hooks from a harness's settings"))
		.argument("<harness>", `the harness: ${HARNESSES.join(", ")}`)
		.action(async (harness: string, flags: ScopeFlags) => {
			const report = await uninstallClaudeCode({ ...place(cli), scope: scopeOf(harness, flags) });
			printReport(cli, report);
			cli.exitCode = EXIT.ok;
		});
}

export function registerHook(program: Command, cli: Cli): void {
	program
		.command("hook")
		.description("run one harness hook event: reads the harness's JSON on stdin (the installed hooks call this)")
		.argument("<harness>", `the harness: ${HARNESSES.join(", ")}`)
		.argument("<event>", "the hook event, e.g. Stop")
		.action(async (harness: string, event: string) => {
			checkHarness(harness);
			await runClaudeCodeHook([event], {
				stdin: process.stdin,
				stdout: cli.io.stdout,
				stderr: cli.io.stderr,
				env: cli.io.env,
				cwd: cli.io.cwd,
			});
			// A hook never fails its harness: whatever happened is in the decision log.
			cli.exitCode = EXIT.ok;
		});
}

function withScopes(command: Command): Command {
	return command
		.option("--local", "this project's .claude/settings.local.json, for you only (the default)")
		.option("--project", "this project's .claude/settings.json, shared with everyone who works on it")
		.option("--user", "your user settings (~/.claude/settings.json or $CLAUDE_CONFIG_DIR): every project");
}

function scopeOf(harness: string, flags: ScopeFlags): InstallScope {
	checkHarness(harness);
	const chosen = INSTALL_SCOPES.filter((scope) => flags[scope]);
	if (chosen.length > 1) throw new BoulderError("usage", `choose one of ${chosen.map((s) => `--${s}`).join(", ")}`);
	return chosen[0] ?? "local";
}

function checkHarness(harness: string): void {
	if (!HARNESSES.includes(harness)) {
		throw new BoulderError("usage", `unknown harness "${harness}"; boulder knows: ${HARNESSES.join(", ")}`);
	}
}

function place(cli: Cli) {
	return { cwd: cli.io.cwd, env: cli.io.env };
}

function printReport(cli: Cli, report: InstallReport): void {
	cli.out(installReportLines(report, INSTALL_TEXT, cli.colors()).join("\n"));
}
