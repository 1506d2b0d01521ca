// Image uploads are checked by their bytes: signatures for raster images, a strict parse and an
// allow-list for SVG, which is kept as rebuilt from it; a corpus of known SVG XSS vectors.
import { describe, expect, it } from 'vitest';
import { examplePngDataUrl } from '@consentry/events/examples';
import { findImageProblem, findSvgProblem, imageUpload } from './image-check';
import { sanitiseSvg } from './svg-sanitiser';

const twoMb = 2 * 1024 * 1024;
const dataUrl = (type: string, bytes: Buffer | string) => `data:image/${type};base64,${Buffer.from(bytes).toString('base64')}`;
const gif = Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(20)]);
const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0]);
const webp = Buffer.concat([Buffer.from('RIFF'), Buffer.from([26, 0, 0, 0]), Buffer.from('WEBPVP8 '), Buffer.alloc(14)]);
const svg = (body: string) => dataUrl('svg+xml', `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">${body}</svg>`);

describe('a real image', () => {
  it.each([
    ['png', examplePngDataUrl],
    ['gif', dataUrl('gif', gif)],
    ['jpeg', dataUrl('jpeg', jpeg)],
    ['webp', dataUrl('webp', webp)],
    ['svg', svg('<rect width="10" height="10" fill="#2563eb"/><a href="#logo"><text>x</text></a>')],
  ])('passes (%s)', (_type, url) => {
    expect(findImageProblem(url, twoMb)).toBeNull();
  });
});

describe('a file that only claims to be an image', () => {
  it.each([
    ['text posing as PNG', dataUrl('png', 'hello, world')],
    ['a GIF posing as PNG', dataUrl('png', gif)],
    ['a PNG posing as JPEG', examplePngDataUrl.replace('image/png', 'image/jpeg')],
    ['HTML posing as WebP', dataUrl('webp', '<html><script>alert(1)</script></html>')],
    ['a PDF', `data:application/pdf;base64,${Buffer.from('%PDF-1.4').toString('base64')}`],
    ['no data URL at all', 'https://example.com/logo.png'],
    ['broken base64', 'data:image/png;base64,iVBORw0KGgo$$$'],
    ['an empty payload', 'data:image/png;base64,'],
  ])('is refused as an invalid file type: %s', (_label, url) => {
    expect(findImageProblem(url, twoMb)).toMatchObject({ apiCode: 'INVALID_FILE_TYPE', message: expect.stringMatching(/^Invalid file type/) });
  });
});

describe('an SVG', () => {
  it.each([
    ['a script', '<script>alert(1)</script>', 'must not contain <script>'],
    ['a namespaced script', '<svg:script xmlns:svg="http://www.w3.org/2000/svg">alert(1)</svg:script>', 'must not contain <svg:script>'],
    ['a foreign object', '<foreignObject><div xmlns="http://www.w3.org/1999/xhtml">x</div></foreignObject>', 'must not contain <foreignObject>'],
    ['an event handler', '<rect width="1" height="1" onload="alert(1)"/>', 'event handler attributes (onload)'],
    ['an upper-case event handler', '<rect width="1" height="1" ONCLICK="alert(1)"/>', 'event handler attributes (ONCLICK)'],
    ['a javascript: link', '<a href="java\tscript:alert(1)"><text>x</text></a>', 'must not link to scripts (href)'],
    ['an xlink javascript: link', '<a xmlns:xlink="http://www.w3.org/1999/xlink" xlink:href="javascript:alert(1)"><text>x</text></a>', 'must not link to scripts'],
    ['an iframe', '<iframe src="https://evil.example"/>', 'must not contain <iframe>'],
  ])('with %s is refused', (_label, body, reason) => {
    const problem = findImageProblem(svg(body), twoMb);
    expect(problem?.apiCode).toBe('INVALID_FILE_TYPE');
    expect(problem?.message).toContain(reason);
  });

  it('that is not well-formed XML is refused', () => {
    expect(findSvgProblem('<svg><rect></svg>')).toBe('the file is not well-formed SVG');
    expect(findSvgProblem('not xml at all')).toBe('the file is not well-formed SVG');
  });

  it('with another root element is refused', () => {
    expect(findSvgProblem('<html xmlns="http://www.w3.org/1999/xhtml"><body/></html>')).toBe('an SVG must have an <svg> root element');
  });

  it('with a DOCTYPE (entity expansion) is refused', () => {
    const bomb = '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaa">]><svg xmlns="http://www.w3.org/2000/svg">&a;</svg>';
    expect(findSvgProblem(bomb)).not.toBeNull();
  });
});

// Known SVG XSS and exfiltration vectors (OWASP's filter-evasion sheet, DOMPurify's and
// svg-hush's test suites, issue 27): each must be refused, or be left out of what is kept.
const svgVectors: readonly (readonly [string, string])[] = [
  ['set on an event handler (issue 27)', '<rect width="5" height="5"><set attributeName="onmouseover" to="alert(1)"/></rect>'],
  ['set on a link', '<a href="#x"><set attributeName="href" to="javascript:alert(1)"/><text>x</text></a>'],
  ['animate of xlink:href', '<a xmlns:xlink="http://www.w3.org/1999/xlink" xlink:href="#x"><animate attributeName="xlink:href" values="javascript:alert(1)"/><text>x</text></a>'],
  ['animate of an upper-case handler', '<rect width="5" height="5"><animate attributeName="ONCLICK" values="alert(1)"/></rect>'],
  ['onbegin on an animation', '<animate attributeName="x" dur="1s" onbegin="alert(1)"/>'],
  ['onload on a group', '<g onload="alert(1)"/>'],
  ['a script in CDATA', '<script><![CDATA[alert(1)]]></script>'],
  ['a script in the XHTML namespace', '<h:script xmlns:h="http://www.w3.org/1999/xhtml">alert(1)</h:script>'],
  ['an XHTML iframe', '<h:iframe xmlns:h="http://www.w3.org/1999/xhtml" src="javascript:alert(1)"/>'],
  ['an XHTML img with onerror', '<h:img xmlns:h="http://www.w3.org/1999/xhtml" src="x" onerror="alert(1)"/>'],
  ['a foreignObject with HTML', '<foreignObject width="10" height="10"><body xmlns="http://www.w3.org/1999/xhtml"><img src="x"/></body></foreignObject>'],
  ['a javascript: link', '<a href="javascript:alert(1)"><text>x</text></a>'],
  ['an entity-spelled javascript: link', '<a href="&#106;avascript:alert(1)"><text>x</text></a>'],
  ['a javascript: link with a tab', '<a href="jav&#x09;ascript:alert(1)"><text>x</text></a>'],
  ['an external link', '<a href="https://evil.example/"><text>x</text></a>'],
  ['a use of an external document', '<use href="https://evil.example/sprite.svg#x"/>'],
  ['a use of a data: SVG', '<use href="data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciPjxzY3JpcHQ+YWxlcnQoMSk8L3NjcmlwdD48L3N2Zz4=#x"/>'],
  ['an image from elsewhere (a tracking pixel)', '<image href="https://evil.example/pixel.png" width="1" height="1"/>'],
  ['an image of an SVG data URL', '<image href="data:image/svg+xml;base64,PHN2Zy8+" width="1" height="1"/>'],
  ['a feImage from elsewhere', '<filter id="f"><feImage href="https://evil.example/x.png"/></filter>'],
  ['a fill from elsewhere', '<rect width="5" height="5" fill="url(https://evil.example/x.svg#g)"/>'],
  ['a style attribute loading a file', '<rect width="5" height="5" style="fill: url( \'https://evil.example/x\' )"/>'],
  ['a style sheet importing', '<style>@import url(https://evil.example/x.css);</style>'],
  ['a style sheet with an escaped url', '<style>rect { fill: \\75 rl(https://evil.example/x) }</style>'],
  ['a style sheet with image-set', '<style>rect { background: image-set("https://evil.example/x.png" 1x) }</style>'],
  ['a handler on a namespaced element', '<svg:g xmlns:svg="http://www.w3.org/2000/svg" svg:onclick="alert(1)"/>'],
  ['an embed', '<embed src="https://evil.example/x.swf"/>'],
  ['an object', '<object data="https://evil.example/x.html"/>'],
  ['an XBL binding', '<rect width="5" height="5" style="-moz-binding: url(https://evil.example/x.xml#x)"/>'],
  ['a handler element', '<handler type="application/ecmascript">alert(1)</handler>'],
];
const dangerous = /\bon[a-z]+\s*=|javascript:|<script|foreignObject|<set\b|<animate|<iframe|<embed|<object|href="(?!#|data:image\/(?:png|jpeg|gif|webp);)|url\((?!#)|@import|evil\.example/i;

describe('an SVG with a known XSS vector', () => {
  it.each(svgVectors)('is refused, or kept without it: %s', (_label, body) => {
    const document = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">${body}</svg>`;
    const result = sanitiseSvg(document);
    if (result.problem === undefined) expect(result.svg).not.toMatch(dangerous);
    else expect(result.problem).toMatch(/^an SVG /);
  });

  it('that animates an event handler is refused with the reason', () => {
    expect(findSvgProblem('<svg xmlns="http://www.w3.org/2000/svg"><rect><set attributeName="onmouseover" to="alert(1)"/></rect></svg>')).toBe(
      'an SVG must not animate event handlers or links (<set attributeName="onmouseover">)',
    );
  });

  it('from an xml-stylesheet processing instruction is refused', () => {
    expect(findSvgProblem('<?xml-stylesheet href="https://evil.example/x.css"?><svg xmlns="http://www.w3.org/2000/svg"/>')).toBe('an SVG must not load style sheets');
  });
});

describe('an SVG as it is kept', () => {
  it('is rebuilt from the allow-list: editor metadata, comments, unknown attributes and animations left out', () => {
    const inkscape = `<?xml version="1.0"?>
<!-- Created with Inkscape -->
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape"
     xmlns:sodipodi="http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd" width="40" height="20" viewBox="0 0 40 20" inkscape:version="1.3">
  <sodipodi:namedview id="nv" pagecolor="#ffffff"/>
  <metadata><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"/></metadata>
  <title>Shop &amp; Co</title>
  <defs><linearGradient id="g"><stop offset="0" stop-color="#0f766e"/></linearGradient><path id="p" d="M0 0h5"/></defs>
  <style>.a { fill: url(#g); }</style>
  <g inkscape:label="Layer 1" data-name="layer" class="a">
    <rect width="40" height="20" rx="3" fill="url(#g)" style="stroke: #000"/>
    <use xlink:href="#p"/>
    <circle r="2"><animate attributeName="r" values="2;3;2" dur="1s" repeatCount="indefinite"/></circle>
    <text x="2" y="15" font-family="sans-serif">A &lt; B</text>
  </g>
</svg>`;
    expect(sanitiseSvg(inkscape)).toEqual({
      svg:
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="40" height="20" viewBox="0 0 40 20">\n  \n  \n  ' +
        '<title>Shop &amp; Co</title>\n  <defs><linearGradient id="g"><stop offset="0" stop-color="#0f766e"></stop></linearGradient><path id="p" d="M0 0h5"></path></defs>\n  ' +
        '<style>.a { fill: url(#g); }</style>\n  <g class="a">\n    <rect width="40" height="20" rx="3" fill="url(#g)" style="stroke: #000"></rect>\n    ' +
        '<use xlink:href="#p"></use>\n    <circle r="2"></circle>\n    <text x="2" y="15" font-family="sans-serif">A &lt; B</text>\n  </g>\n</svg>',
    });
  });

  it('replaces the upload in the request', () => {
    const upload = svg('<rect width="1" height="1"/><!-- hidden --><desc>ok</desc>');
    const result = imageUpload(twoMb).safeParse(upload);
    expect(result.success).toBe(true);
    expect(Buffer.from(result.data!.slice('data:image/svg+xml;base64,'.length), 'base64').toString('utf8')).toBe(
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="1" height="1"></rect><desc>ok</desc></svg>',
    );
    expect(imageUpload(twoMb).safeParse(examplePngDataUrl)).toEqual({ success: true, data: examplePngDataUrl });
  });
});

describe('an image over the size limit', () => {
  it('is refused as too large, before its bytes are looked at', () => {
    const big = dataUrl('png', Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(twoMb)]));
    expect(findImageProblem(big, twoMb)).toEqual({ apiCode: 'FILE_TOO_LARGE', message: 'File too large: please choose an image smaller than 2MB' });
  });

  it('is refused by the request schema with its api code', () => {
    const result = imageUpload(1024).safeParse(dataUrl('png', Buffer.alloc(4096)));
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]).toMatchObject({ message: 'File too large: please choose an image smaller than 1KB', params: { apiCode: 'FILE_TOO_LARGE' } });
  });
});
