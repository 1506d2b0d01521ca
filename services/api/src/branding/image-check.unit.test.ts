// Image uploads are checked by their bytes: signatures for raster images, a strict parse and a deny
// list for SVG.
import { describe, expect, it } from 'vitest';
import { examplePngDataUrl } from '@consentry/events/examples';
import { findImageProblem, findSvgProblem, imageUpload } from './image-check';

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
    ['svg', svg('<rect width="10" height="10" fill="#2563eb"/><a href="https://example.com"><text>x</text></a>')],
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
