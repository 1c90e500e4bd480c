/** Words of a POSIX shell command line, as the installers write hook commands and doctor reads them back. */

/** Quotes `word` for a POSIX shell when it needs it. */
export function shellWord(word: string): string {
	return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/** Splits what `shellWord` (or a double-quoted word) produced back into words. */
export function shellWords(text: string): string[] {
	const words: string[] = [];
	const pattern = /'((?:[^']|'\\'')*)'|"([^"]*)"|(\S+)/g;
	for (const match of text.matchAll(pattern)) {
		if (match[1] !== undefined) words.push(match[1].replaceAll(`'\\''`, "'"));
		else words.push(match[2] ?? match[3] ?? "");
	}
	return words;
}
