// An uploaded SVG rebuilt from an allow-list: parsed as namespaced XML (saxes), and written out again
// with only the SVG elements and attributes a drawing needs. What can run, load or link anything is
// refused with its reason, so the owner learns why (scripts, foreign objects, frames, event handlers,
// animations of handlers or links, references to other files, style sheets that import or escape);
// anything else not on the lists (editor metadata, comments, other namespaces, animations) is left
// out. The stored logo is the rebuilt document, never the upload.
import { createRequire } from 'node:module';
import type { SaxesAttributeNS } from 'saxes';

const svgNamespace = 'http://www.w3.org/2000/svg';
const xlinkNamespace = 'http://www.w3.org/1999/xlink';
const xmlNamespace = 'http://www.w3.org/XML/1998/namespace';

/** Refused wherever they are, in any namespace (compared in lower case). */
const refusedElements = new Set(['script', 'foreignobject', 'iframe', 'embed', 'object', 'handler', 'listener']);

/** Animations: refused when they target a handler or a link, otherwise left out. */
const animationElements = new Set(['set', 'animate', 'animatemotion', 'animatetransform', 'animatecolor']);

/** The SVG elements a drawing keeps. */
const allowedElements = new Set([
  'svg', 'g', 'defs', 'symbol', 'use', 'title', 'desc', 'style', 'a', 'switch',
  'path', 'rect', 'circle', 'ellipse', 'line', 'polyline', 'polygon',
  'text', 'tspan', 'textPath',
  'linearGradient', 'radialGradient', 'stop', 'pattern', 'clipPath', 'mask', 'marker', 'image',
  'filter', 'feBlend', 'feColorMatrix', 'feComponentTransfer', 'feComposite', 'feConvolveMatrix', 'feDiffuseLighting',
  'feDisplacementMap', 'feDistantLight', 'feDropShadow', 'feFlood', 'feFuncA', 'feFuncB', 'feFuncG', 'feFuncR',
  'feGaussianBlur', 'feMerge', 'feMergeNode', 'feMorphology', 'feOffset', 'fePointLight', 'feSpecularLighting',
  'feSpotLight', 'feTile', 'feTurbulence',
]);

/** Attributes without a namespace that a drawing keeps (href is checked apart). */
const allowedAttributes = new Set([
  'id', 'class', 'style', 'transform', 'viewBox', 'preserveAspectRatio', 'version', 'width', 'height', 'x', 'y',
  'x1', 'y1', 'x2', 'y2', 'cx', 'cy', 'r', 'rx', 'ry', 'fx', 'fy', 'fr', 'd', 'points', 'pathLength',
  'fill', 'fill-opacity', 'fill-rule', 'stroke', 'stroke-width', 'stroke-linecap', 'stroke-linejoin', 'stroke-miterlimit',
  'stroke-dasharray', 'stroke-dashoffset', 'stroke-opacity', 'opacity', 'color', 'display', 'visibility', 'overflow',
  'clip-path', 'clip-rule', 'clipPathUnits', 'mask', 'maskUnits', 'maskContentUnits', 'filter', 'filterUnits', 'primitiveUnits',
  'gradientUnits', 'gradientTransform', 'spreadMethod', 'offset', 'stop-color', 'stop-opacity',
  'patternUnits', 'patternContentUnits', 'patternTransform', 'marker-start', 'marker-mid', 'marker-end',
  'markerWidth', 'markerHeight', 'markerUnits', 'refX', 'refY', 'orient',
  'font-family', 'font-size', 'font-weight', 'font-style', 'font-variant', 'font-stretch', 'text-anchor',
  'dominant-baseline', 'alignment-baseline', 'baseline-shift', 'letter-spacing', 'word-spacing', 'text-decoration',
  'writing-mode', 'direction', 'dx', 'dy', 'rotate', 'textLength', 'lengthAdjust', 'startOffset', 'method', 'spacing', 'side',
  'lang', 'role', 'aria-label', 'aria-hidden', 'focusable', 'color-interpolation', 'color-interpolation-filters',
  'shape-rendering', 'text-rendering', 'image-rendering', 'vector-effect', 'paint-order', 'mix-blend-mode', 'isolation',
  'flood-color', 'flood-opacity', 'lighting-color', 'in', 'in2', 'result', 'stdDeviation', 'mode', 'type', 'values',
  'operator', 'k1', 'k2', 'k3', 'k4', 'scale', 'xChannelSelector', 'yChannelSelector', 'radius', 'kernelMatrix', 'order',
  'divisor', 'bias', 'targetX', 'targetY', 'edgeMode', 'preserveAlpha', 'surfaceScale', 'specularConstant',
  'specularExponent', 'diffuseConstant', 'azimuth', 'elevation', 'pointsAtX', 'pointsAtY', 'pointsAtZ',
  'limitingConeAngle', 'z', 'tableValues', 'slope', 'intercept', 'amplitude', 'exponent', 'baseFrequency',
  'numOctaves', 'seed', 'stitchTiles', 'requiredFeatures', 'systemLanguage',
]);

/** An image an <image> may embed: a raster data URL, which loads nothing and runs nothing. */
const embeddedRaster = /^data:image\/(?:png|jpeg|gif|webp);base64,[a-z0-9+/]+=*$/i;

/** What browsers ignore inside a URL scheme or a CSS function name, removed before looking. */
const compact = (value: string) => [...value].filter((char) => char.charCodeAt(0) > 0x20).join('').toLowerCase();

/** Why an attribute value or a style sheet would load or run something, or null. */
function findLoadProblem(value: string, where: string): string | null {
  const text = compact(value);
  if (text.includes('javascript:') || text.includes('vbscript:') || text.includes('data:text/html')) {
    return `an SVG must not link to scripts (${where})`;
  }
  // url(#id) is a reference inside the drawing; any other url() fetches a file.
  if (/url\((?!['"]?#)/.test(text)) return `an SVG must not load other files (${where})`;
  return null;
}

/** Why a style sheet or style attribute is refused: CSS escapes, imports and functions that fetch. */
function findStyleProblem(css: string, where: string): string | null {
  const text = compact(css);
  // Escapes (\75 rl) could spell any of the rest; a drawing's CSS needs none.
  if (/\\|@import|image-set|src\(|expression\(|-moz-binding|behavior:/.test(text)) {
    return `an SVG style must not escape, import or load anything (${where})`;
  }
  return findLoadProblem(css, where);
}

const escapeText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeAttribute = (value: string) => escapeText(value).replace(/"/g, '&quot;');

export type SvgSanitising = { readonly svg: string; readonly problem?: undefined } | { readonly svg?: undefined; readonly problem: string };

/** The SVG rebuilt from the allow-list, or why it is refused. */
export function sanitiseSvg(source: string): SvgSanitising {
  // Loaded with the first logo, not at every start.
  const { SaxesParser } = createRequire(import.meta.url)('saxes') as typeof import('saxes');
  const parser = new SaxesParser({ xmlns: true });
  let problem: string | null = null;
  const refuse = (reason: string) => {
    problem ??= reason;
  };
  const out: string[] = [];
  let usesXlink = false;
  let rootName: string | null = null;
  let depth = 0;
  /** Depth at which a left-out element began; everything inside it is left out too. */
  let skippingFrom: number | null = null;
  /** The kept elements open around the parser (the innermost last). */
  const keptStack: string[] = [];
  /** The text of the <style> being read, checked whole when it closes. */
  let styleSheet = '';
  const isSvg = (uri: string) => uri === svgNamespace || uri === '';

  parser.on('doctype', () => refuse('an SVG must not have a DOCTYPE'));
  parser.on('processinginstruction', (instruction) => {
    if (instruction.target.toLowerCase() === 'xml-stylesheet') refuse('an SVG must not load style sheets');
  });
  parser.on('opentag', (tag) => {
    depth += 1;
    if (depth === 1) rootName = isSvg(tag.uri) ? tag.local : null;
    const lowerLocal = tag.local.toLowerCase();
    if (refusedElements.has(lowerLocal)) refuse(`an SVG must not contain <${tag.name}>`);
    const attributes = Object.values(tag.attributes) as SaxesAttributeNS[];
    for (const attribute of attributes) {
      if (attribute.local.toLowerCase().startsWith('on') && attribute.prefix !== 'xmlns') {
        refuse(`an SVG must not have event handler attributes (${attribute.name})`);
      }
      const loads = findLoadProblem(attribute.value, attribute.name);
      if (loads) refuse(loads);
    }
    if (animationElements.has(lowerLocal)) {
      const target = (attributes.find((attribute) => attribute.local === 'attributeName')?.value ?? '').trim().toLowerCase();
      const targetLocal = target.split(':').pop() ?? '';
      if (targetLocal.startsWith('on') || targetLocal === 'href') {
        refuse(`an SVG must not animate event handlers or links (<${tag.name} attributeName="${target.slice(0, 40)}">)`);
      }
    }
    if (skippingFrom !== null) return;
    if (!isSvg(tag.uri) || !allowedElements.has(tag.local)) {
      skippingFrom = depth;
      return;
    }
    let written = `<${tag.local}`;
    if (depth === 1) written += ` xmlns="${svgNamespace}"`;
    for (const attribute of attributes) {
      const { uri, local, value } = attribute;
      if (local === 'href' && (uri === '' || uri === xlinkNamespace)) {
        if (!value.startsWith('#') && !(tag.local === 'image' && embeddedRaster.test(value))) {
          refuse(`an SVG must not refer to other files (${attribute.name}="${value.slice(0, 40)}")`);
          continue;
        }
        if (uri === xlinkNamespace) usesXlink = true;
        written += ` ${uri === xlinkNamespace ? 'xlink:href' : 'href'}="${escapeAttribute(value)}"`;
      } else if (uri === xmlNamespace && (local === 'space' || local === 'lang')) {
        written += ` xml:${local}="${escapeAttribute(value)}"`;
      } else if (uri === '' && allowedAttributes.has(local)) {
        if (local === 'style') {
          const styleProblem = findStyleProblem(value, attribute.name);
          if (styleProblem) refuse(styleProblem);
        }
        written += ` ${local}="${escapeAttribute(value)}"`;
      }
    }
    out.push(written + '>');
    keptStack.push(tag.local);
  });
  const onText = (text: string) => {
    if (skippingFrom !== null || keptStack.length === 0) return;
    if (keptStack[keptStack.length - 1] === 'style') styleSheet += text;
    out.push(escapeText(text));
  };
  parser.on('text', onText);
  parser.on('cdata', onText);
  parser.on('closetag', () => {
    if (skippingFrom === null) {
      const closed = keptStack.pop() ?? '';
      if (closed === 'style') {
        const styleProblem = findStyleProblem(styleSheet, '<style>');
        if (styleProblem) refuse(styleProblem);
        styleSheet = '';
      }
      out.push(`</${closed}>`);
    } else if (skippingFrom === depth) skippingFrom = null;
    depth -= 1;
  });
  try {
    parser.write(source).close();
  } catch {
    return { problem: 'the file is not well-formed SVG' };
  }
  if (problem) return { problem };
  if (rootName !== 'svg') return { problem: 'an SVG must have an <svg> root element' };
  const svg = out.join('');
  // The xlink prefix, declared on the root when a kept link uses it.
  return { svg: usesXlink ? svg.replace(/^<svg xmlns="[^"]*"/, (root) => `${root} xmlns:xlink="${xlinkNamespace}"`) : svg };
}
