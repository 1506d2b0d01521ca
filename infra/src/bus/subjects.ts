// NATS subject rules, shared by the in-memory bus (which must match subjects exactly as JetStream
// does, or the two adapters would deliver different messages to the same filter) and by callers
// that build subjects. Tokens are separated by `.`; in a filter `*` stands for exactly one token and
// `>` (last token only) for one or more tokens.

const WHITESPACE = /\s/;

function hasValidTokens(tokens: readonly string[]): boolean {
  return tokens.every((token) => token.length > 0 && !WHITESPACE.test(token));
}

/** True for a subject a message can be published to: non-empty tokens, no wildcards. */
export function isValidSubject(subject: string): boolean {
  const tokens = subject.split('.');
  return hasValidTokens(tokens) && tokens.every((token) => token !== '*' && token !== '>');
}

/** True for a subscription filter: non-empty tokens, `>` only as the last token. */
export function isValidFilter(filter: string): boolean {
  const tokens = filter.split('.');
  return hasValidTokens(tokens) && tokens.every((token, i) => token !== '>' || i === tokens.length - 1);
}

/** Whether `subject` (a literal subject) matches `filter` (which may hold wildcards). */
export function matchesSubject(filter: string, subject: string): boolean {
  return matchesTokens(filter.split('.'), subject.split('.'));
}

/**
 * A filter's matcher that remembers its answer per subject: a stream carries few distinct subjects
 * (prefix, category, type, partition), and a consumer tests every message against its filter.
 */
export function subjectMatcher(filter: string): (subject: string) => boolean {
  const filterTokens = filter.split('.');
  const answers = new Map<string, boolean>();
  return (subject) => {
    let answer = answers.get(subject);
    if (answer === undefined) {
      answer = matchesTokens(filterTokens, subject.split('.'));
      // Bounded, whatever the subjects: past this many, start over.
      if (answers.size >= 10_000) answers.clear();
      answers.set(subject, answer);
    }
    return answer;
  };
}

function matchesTokens(filterTokens: readonly string[], subjectTokens: readonly string[]): boolean {
  for (let i = 0; i < filterTokens.length; i++) {
    const token = filterTokens[i];
    if (token === '>') return subjectTokens.length > i;
    if (i >= subjectTokens.length) return false;
    if (token !== '*' && token !== subjectTokens[i]) return false;
  }
  return filterTokens.length === subjectTokens.length;
}

/**
 * Whether every subject `filter` can match is also matched by `outer` — JetStream refuses a consumer
 * whose filter is not such a subset of its stream's subjects, so the memory bus refuses it too.
 */
export function isFilterWithin(filter: string, outer: string): boolean {
  const filterTokens = filter.split('.');
  const outerTokens = outer.split('.');
  for (let i = 0; i < outerTokens.length; i++) {
    const outerToken = outerTokens[i];
    const token = filterTokens[i];
    if (token === undefined) return false;
    if (outerToken === '>') return true;
    if (outerToken === '*') {
      if (token === '>') return false;
    } else if (token !== outerToken) {
      return false;
    }
  }
  return filterTokens.length === outerTokens.length;
}
