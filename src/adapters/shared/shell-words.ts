/**
 * The words of the hook commands installers write into a harness's config
 * (which the harness runs with `sh -c`): quoted for a POSIX shell when
 * needed, and split back into words when an installed command is read.
 */

/** Single-quotes a word unless it is plain. */
export function shellWord(word: string): string {
	if (/^[\w@%+=:,./-]+$/.test(word)) return word;
	return `'${word.replaceAll("'", `'\\''`)}'`;
}

/** Splits what `shellWord` produced (or a double-quoted word) back into words. */
export function shellWords(text: string): string[] {
	const words: string[] = [];
	const pattern = /'((?:[^']|'\\'')*)'|"([^"]*)"|(\S+)/g;
	for (const match of text.matchAll(pattern)) {
		if (match[1] !== undefined) words.push(match[1].replaceAll(`'\\''`, "'"));
		else words.push(match[2] ?? match[3] ?? "");
	}
	return words;
}
