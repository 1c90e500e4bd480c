/**
 * A command-hook harness as the adapter registry sees it, from its data and
 * its parts: at hand, or behind two loaders (install and doctor; the hook's
 * dialect) so a CLI command loads only what it needs. Imports nothing heavy
 * at load time.
 */
import type { HarnessAdapter } from "../types.js";
import type { CommandHookDialect } from "./dialect.js";
import type { HooksDoctor } from "./doctor.js";
import type { HooksInstall } from "./install.js";

/** What the CLI shows of the harness, as `HarnessAdapter` has it, and the family's parts to load. */
export interface CommandHookHarness
	extends Pick<HarnessAdapter, "name" | "title" | "program" | "installFlags" | "normalizeTodos"> {
	/** Each scope's one line for `--help`, by name, in the order `--help` lists them: the first is the default. */
	scopes: Readonly<Record<string, string>>;
	/** As `HookEntry.fileChangeEvent`: the event its dialect file's `fileChanges` answers in a bundle of its own. */
	fileChangeEvent?: string;
	/** The install options the harness's own flags stand for (`--todo-tools` → `{todoTools: true}`). */
	options?(flags: readonly string[]): Record<string, unknown>;
	/** The events `boulder hook <harness>` answers, with the dialect's own words. */
	events: readonly string[];
	dialect(): Promise<{ dialect: CommandHookDialect }>;
	install(): Promise<{ install: HooksInstall; doctor: HooksDoctor }>;
}

export function commandHookAdapter(harness: CommandHookHarness): HarnessAdapter {
	const family = async () => {
		const [spec, flow, doctor] = await Promise.all([harness.install(), import("./install.js"), import("./doctor.js")]);
		return { ...spec, flow, check: doctor.doctorCheck(spec.install, spec.doctor) };
	};
	return {
		name: harness.name,
		title: harness.title,
		program: harness.program,
		scopes: Object.entries(harness.scopes).map(([name, help]) => ({ name, help })),
		defaultScope: Object.keys(harness.scopes)[0] as string,
		...(harness.installFlags ? { installFlags: harness.installFlags } : {}),
		async install(place) {
			const { install, flow } = await family();
			const options = { ...place, ...harness.options?.(place.flags ?? []) };
			const { report, notes, remarks } = await flow.installHooks(install, options);
			return { report, text: install.text, notes, ...(remarks.length > 0 ? { remarks } : {}) };
		},
		async uninstall(place) {
			const { install, flow } = await family();
			return { report: await flow.uninstallHooks(install, place), text: install.text, notes: [] };
		},
		async installedScopes(place) {
			const { install, flow } = await family();
			return flow.installedScopes(install, place);
		},
		doctor: { name: harness.name, run: async (context) => (await family()).check.run(context) },
		// The dialect and the runtime load only when a hook runs (the CLI loads every adapter on every command).
		hook: {
			events: harness.events,
			...(harness.fileChangeEvent ? { fileChangeEvent: harness.fileChangeEvent } : {}),
			run: async (event, streams) => {
				const [{ runDialect }, { dialect }] = await Promise.all([import("./runtime.js"), harness.dialect()]);
				return runDialect([event], streams, dialect);
			},
		},
		normalizeTodos: harness.normalizeTodos,
	};
}

/** The parts of a harness whose dialect file holds its adapter, at hand: its name and events are the dialect's. */
type AtHand = { parts: { dialect: CommandHookDialect; install: HooksInstall; doctor: HooksDoctor } };

export function adapterOf({
	parts: { dialect, install, doctor },
	...harness
}: Omit<CommandHookHarness, "name" | "events" | "dialect" | "install"> & AtHand): HarnessAdapter {
	return commandHookAdapter({
		...harness,
		name: dialect.harness,
		events: [...dialect.events, ...Object.keys(dialect.words ?? {})],
		dialect: async () => ({ dialect }),
		install: async () => ({ install, doctor }),
	});
}
