/**
 * POSIX shell words for the hook commands boulder writes into harness
 * settings (every harness here runs them with `sh -c` or `bash -c`), and
 * their reading back.
 */

/** Quotes a word for a POSIX shell when it needs it. */
export function shellQuote(word: string): string {
	if (/^[\w@%+=:,./-]+$/.test(word)) return word;
	return `'${word.replaceAll("'", `'\\''`)}'`;
}

/** Splits what `shellQuote` (or a double-quoted word) produced back into words. */
export function shellWords(text: string): string[] {
	const words: string[] = [];
	const pattern = /'((?:[^']|'\\'')*)'|"([^"]*)"|(\S+)/g;
	for (const match of text.matchAll(pattern)) {
		if (match[1] !== undefined) words.push(match[1].replaceAll(`'\\''`, "'"));
		else words.push(match[2] ?? match[3] ?? "");
	}
	return words;
}
