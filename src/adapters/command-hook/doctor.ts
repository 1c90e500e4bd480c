/**
 * `boulder doctor` for every command-hook harness, once, so the same broken
 * install reads the same everywhere: where boulder's hooks are, whether what
 * they run is there and is this version, and that they are in one place only.
 * A missing registration is a warning (the rest still work); a pinned hook's
 * program or node gone is a problem; the version is that of the package around
 * the program a hook runs (a clone may have moved on), else its marker's, or for
 * portable hooks that of the boulder the one finder finds here; a portable hook
 * that finds none is a problem. A harness adds its words and checks of what only
 * it has (`HooksDoctor`). Every finding that needs action names its fix.
 */
import { existsSync } from "node:fs";
import type { DoctorFinding } from "../../engine/doctor-types.js";
import { packageAt, packageVersion, readConfigText } from "../shared/config-file.js";
import type { OurCommand } from "../shared/hook-command.js";
import { CA_CERTS_HANDOVER } from "../shared/hook-form.js";
import { messageOf } from "../shared/hook-input.js";
import { caCertsNotSetAside } from "../shared/install-messages.js";
import { findInstalledBoulder, type Installed } from "../shared/installed-boulder.js";
import { rootOfBundle } from "../shared/programs.js";
import { harnessVersionFindings } from "../shared/tested-versions.js";
import { entriesIn, filesOf, type HooksInstall, type Place, shadowedBy, valueIn } from "./install.js";
import { type HookRegistration, wordOf } from "./registrations.js";

export type Entry = OurCommand & { word: string };

export interface DoctorWords {
	notInstalled: string;
	installFix: string;
	unreadable(file: string, problem: string): string;
	unreadableFix: string;
	twice(places: string[]): string;
	/** The fix for `twice`; by default, uninstalling the last place found. */
	twiceFix?: string;
	missingEvents(file: string, events: string[]): string;
	programGone(file: string, program: string): string;
	/** `where`: the program the hooks run, or where portable hooks found it. */
	otherVersion(file: string, installed: string, version: string, where: string): string;
	noneFound(file: string): string;
	linkGone?(link: string, target: string): string;
	/** The harness reads `reader` and not the hooks in `file` (`HooksInstall.eventMapFile`). */
	shadowed?(file: string, reader: string): string;
	/** All is well with the hooks in `file`: `where` is what portable hooks run here, null for pinned ones. */
	ok(file: string, said: { scope: string; version: string; count: number; where: string | null }): string;
}

export type HooksOk = Parameters<DoctorWords["ok"]>[1];

export interface HooksDoctor {
	text: DoctorWords;
	/** How `twice` names a place boulder's hooks are in; by default `<scope> settings`. */
	place?(scope: string, file: string): string;
	/** About every file read, holding boulder's hooks or not (Gemini CLI's switch that turns hooks off). */
	inspect?(file: string, value: unknown): DoctorFinding[];
	/** More about one file of boulder's hooks (Codex's trust). */
	judge?(said: {
		scope: string;
		file: string;
		value: unknown;
		entries: Entry[];
		context: Place;
	}): Promise<DoctorFinding[]>;
	/** Other places boulder runs from (Claude Code's plugins), each with the command that removes it. */
	elsewhere?(values: Map<string, unknown>, context: Place, version: string): Promise<Elsewhere[]>;
	/** Said once boulder is installed anywhere (Claude Code's todo tools, Qwen Code's cap). */
	installed?(values: Map<string, unknown>, context: Place): Promise<DoctorFinding[]>;
}

export interface Elsewhere {
	place: string;
	removeFix: string;
	findings: DoctorFinding[];
}

/** A harness's doctor check: its hooks, then its installed version against the tested ones. */
export function doctorCheck(spec: HooksInstall, doctor: HooksDoctor) {
	return {
		name: spec.harness,
		hooks: (context: Place, version?: string) => checkHooks(spec, doctor, context, version),
		run: async (context: Place) => [
			...(await checkHooks(spec, doctor, context)),
			...harnessVersionFindings(spec.harness, context.env),
		],
	};
}

export async function checkHooks(
	spec: HooksInstall,
	doctor: HooksDoctor,
	context: Place,
	version: string = packageVersion(),
): Promise<DoctorFinding[]> {
	const say = sayer(spec.harness);
	const words = doctor.text;
	const findings: DoctorFinding[] = [];
	const places: Array<{ place: string; removeFix: string }> = [];
	const values = new Map<string, unknown>();
	for (const scope of Object.keys(spec.where)) {
		for (const file of filesOf(spec, scope, context)) {
			let value: unknown;
			let entries: Entry[];
			let text: string | null;
			try {
				text = await readConfigText(file);
				if (text === null || text.trim() === "") continue;
				value = spec.layout === "own" ? null : valueIn(spec, text, file);
				entries = entriesIn(spec, text, file);
			} catch (error) {
				findings.push(say("problem", words.unreadable(file, messageOf(error)), words.unreadableFix, file));
				continue;
			}
			if (!values.has(scope)) values.set(scope, value);
			findings.push(...(doctor.inspect?.(file, value) ?? []));
			if (entries.length === 0) continue;
			const reader = shadowedBy(spec, file);
			if (reader !== null && words.shadowed) {
				const fix = `\`boulder uninstall ${spec.harness} --${scope}\`, then \`boulder install ${spec.harness} --${scope}\``;
				findings.push(say("problem", words.shadowed(file, reader), fix, file));
				continue;
			}
			places.push({
				place: doctor.place?.(scope, file) ?? `${scope} settings`,
				removeFix: `keep one: \`boulder uninstall ${spec.harness} --${scope}\``,
			});
			const found = judge(spec, words, scope, file, entries, version, context);
			if (paysForCaCerts(entries, text, context.env)) {
				found.push(say("warn", caCertsNotSetAside(file), `\`boulder install ${spec.harness} --${scope}\``, file));
			}
			found.push(...((await doctor.judge?.({ scope, file, value, entries, context })) ?? []));
			if (found.length === 0) {
				const where = entries.some((entry) => entry.form === "pinned") ? null : portableHere(spec, context).where;
				const ok = words.ok(file, { scope, version, count: entries.length, where });
				found.push(say("ok", ok, null, file));
			}
			findings.push(...found);
		}
	}
	for (const other of (await doctor.elsewhere?.(values, context, version)) ?? []) {
		places.push(other);
		findings.push(...other.findings);
	}
	if (places.length === 0) findings.push(say("ok", words.notInstalled, words.installFix));
	if (places.length > 0) findings.push(...((await doctor.installed?.(values, context)) ?? []));
	if (places.length > 1) {
		const fix = words.twiceFix ?? places[places.length - 1]?.removeFix ?? null;
		findings.push(say("warn", words.twice(places.map((one) => one.place)), fix));
	}
	return findings;
}

/**
 * Whether the hooks in a file start node with the user's `NODE_EXTRA_CA_CERTS`
 * when the commands boulder writes now would set it aside: portable ones
 * anywhere, pinned ones but on Windows (`formFor`).
 */
function paysForCaCerts(entries: readonly Entry[], text: string, env: NodeJS.ProcessEnv): boolean {
	if (!env.NODE_EXTRA_CA_CERTS || text.includes(CA_CERTS_HANDOVER)) return false;
	return entries.some((entry) => entry.form === "portable" || process.platform !== "win32");
}

/** What is wrong with one file's hooks; nothing when all is well. */
function judge(
	spec: HooksInstall,
	words: DoctorWords,
	scope: string,
	file: string,
	entries: Entry[],
	version: string,
	context: Place,
): DoctorFinding[] {
	const say = sayer(spec.harness);
	const reinstall = `\`boulder install ${spec.harness} --${scope}\``;
	const found: DoctorFinding[] = [];
	const missing = missingRegistrations(spec.registrations, entries);
	if (missing.length > 0) found.push(say("warn", words.missingEvents(file, missing), reinstall, file));
	const pinned = entries.flatMap((entry) => (entry.form === "pinned" ? [entry] : []));
	for (const program of new Set(pinned.flatMap((entry) => [entry.node, entry.bundle]))) {
		if (!existsSync(program)) found.push(say("problem", words.programGone(file, program), reinstall, file));
	}
	for (const bundle of new Set(pinned.map((entry) => entry.bundle))) {
		const entry = pinned.find((one) => one.bundle === bundle);
		if (!existsSync(bundle) || entry === undefined) continue;
		const installed = packageAt(rootOfBundle(bundle))?.version ?? entry.version;
		if (installed !== version) {
			found.push(say("warn", words.otherVersion(file, installed, version, bundle), reinstall, file));
		}
	}
	if (entries.some((entry) => entry.form === "portable")) {
		found.push(...judgeFound(spec, words, file, portableHere(spec, context), version));
	}
	return found;
}

/** What portable hooks run here, judged; nothing when it is this version. */
export function judgeFound(
	spec: HooksInstall,
	words: DoctorWords,
	file: string,
	installed: Installed,
	version: string,
): DoctorFinding[] {
	const say = sayer(spec.harness);
	const relink = `\`boulder install ${spec.harness} --project\``;
	const found: DoctorFinding[] = [];
	const told = installed.danglingLink !== undefined && words.linkGone !== undefined;
	if (told && installed.danglingLink && words.linkGone) {
		const { link, target } = installed.danglingLink;
		found.push(say("problem", words.linkGone(link, target), relink, link));
	}
	if (installed.kind === "none") {
		if (!told) found.push(say("problem", words.noneFound(file), relink, file));
		return found;
	}
	if (installed.version !== null && installed.version !== version) {
		const fix =
			installed.kind === "project"
				? `\`npm install --save-dev boulder-agent@${version}\``
				: installed.kind === "path"
					? `\`npm install --global boulder-agent@${version}\``
					: relink;
		found.push(say("warn", words.otherVersion(file, installed.version, version, installed.where), fix, file));
	}
	return found;
}

/** The boulder a harness's portable hooks run here, by the one finder. */
export function portableHere(spec: Pick<HooksInstall, "command">, context: Place): Installed {
	const { projectDirVar, bundle, link, bin } = spec.command;
	return findInstalledBoulder(context, { projectDirVar, bundle, link: link?.link ?? null, bin });
}

/** The registrations `installed` lacks: the event, and the word when it is not the event's (`Stop (Watchdog)`). */
function missingRegistrations(
	registrations: readonly HookRegistration[],
	installed: readonly { event: string; word?: string }[],
): string[] {
	return registrations
		.filter(
			(registration) =>
				!installed.some(
					(entry) => entry.event === registration.event && (entry.word ?? entry.event) === wordOf(registration),
				),
		)
		.map((registration) => (registration.word ? `${registration.event} (${registration.word})` : registration.event));
}

/** A finding of `check`'s, its file named where there is one. */
export function sayer(check: string) {
	return (level: DoctorFinding["level"], message: string, fix: string | null, file?: string): DoctorFinding => ({
		check,
		level,
		message,
		fix,
		...(file ? { file } : {}),
	});
}
