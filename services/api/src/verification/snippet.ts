// Finding the Consentry snippet in a page's HTML: a script whose src ends in /widget.js, carrying
// the website's embed code in data-embed-code (or the setup guide's data-consentry-id).

export interface SnippetSearch {
  /** A Consentry widget script is on the page (any embed code). */
  readonly scriptFound: boolean;
  /** It carries this website's embed code. */
  readonly embedCodeFound: boolean;
}

const scriptTag = /<script\b[^>]*>/gi;
const attribute = (name: string) => new RegExp(`\\b${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i');

function attributeValue(tag: string, name: string): string | undefined {
  const match = attribute(name).exec(tag);
  return match ? (match[1] ?? match[2] ?? match[3]) : undefined;
}

export function findSnippet(html: string, embedCode: string): SnippetSearch {
  let scriptFound = false;
  for (const [tag] of html.matchAll(scriptTag)) {
    const src = attributeValue(tag, 'src');
    if (!src || !/\/widget\.js(?:[?#].*)?$/i.test(src)) continue;
    scriptFound = true;
    const code = attributeValue(tag, 'data-embed-code') ?? attributeValue(tag, 'data-consentry-id');
    if (code === embedCode) return { scriptFound, embedCodeFound: true };
  }
  return { scriptFound, embedCodeFound: false };
}
