/**
 * A vCard as the business API's `contacts[]` object: the API takes no raw vCard, so its properties go one
 * by one and the rest is left out. The reverse of webhook-payload.ts `contactOf` (RFC 6350 §3.4).
 */

type Obj = Record<string, unknown>;

interface Property {
  /** Upper case, without a group prefix (`item1.TEL` → `TEL`). */
  name: string;
  /** Parameter names upper case; `TYPE` values split on commas and lower-cased. */
  params: Map<string, string[]>;
  value: string;
}

/** RFC 6350 §3.2: a line break followed by one space or tab continues the line before it. */
const unfold = (vcard: string) => vcard.replace(/\r\n|\r/g, '\n').replace(/\n[ \t]/g, '');

/** Splits on a separator that is not escaped with a backslash. */
function splitUnescaped(value: string, separator: string): string[] {
  const parts: string[] = [];
  let current = '';
  for (let i = 0; i < value.length; i++) {
    const char = value[i]!;
    if (char === '\\' && i + 1 < value.length) {
      current += char + value[i + 1];
      i++;
    } else if (char === separator) {
      parts.push(current);
      current = '';
    } else {
      current += char;
    }
  }
  parts.push(current);
  return parts;
}

/** A text value unescaped: `\n`/`\N` a line break, `\,` `\;` `\\` themselves. */
const unescape = (value: string) => value.replace(/\\([nN,;\\:])/g, (_, char: string) => (char === 'n' || char === 'N' ? '\n' : char));

function parseLine(line: string): Property | null {
  // The value starts after the first colon outside a quoted parameter value.
  let colon = -1;
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    if (line[i] === '"') quoted = !quoted;
    else if (line[i] === ':' && !quoted) {
      colon = i;
      break;
    }
  }
  if (colon <= 0) return null;
  const [rawName, ...rawParams] = line.slice(0, colon).split(';');
  const name = rawName!.replace(/^.*\./, '').toUpperCase();
  const params = new Map<string, string[]>();
  for (const param of rawParams) {
    const eq = param.indexOf('=');
    // vCard 2.1 writes bare types: `TEL;CELL:…`.
    const key = eq === -1 ? 'TYPE' : param.slice(0, eq).toUpperCase();
    const values = (eq === -1 ? param : param.slice(eq + 1)).replace(/"/g, '').split(',').map((v) => v.trim()).filter(Boolean);
    params.set(key, [...(params.get(key) ?? []), ...(key === 'TYPE' ? values.map((v) => v.toLowerCase()) : values)]);
  }
  return { name, params, value: line.slice(colon + 1) };
}

function properties(vcard: string): Property[] {
  return unfold(vcard)
    .split('\n')
    .map((line) => parseLine(line.trim()))
    .filter((property): property is Property => property !== null);
}

/** The API's `type` of a phone, email, url or address: the first type word the card gives, as the API spells it. */
function typeOf(property: Property, words: Record<string, string>): string | undefined {
  for (const type of property.params.get('TYPE') ?? []) if (words[type]) return words[type];
  return undefined;
}

const PHONE_TYPES: Record<string, string> = { cell: 'CELL', mobile: 'CELL', iphone: 'IPHONE', main: 'MAIN', home: 'HOME', work: 'WORK' };
const PLACE_TYPES: Record<string, string> = { home: 'HOME', work: 'WORK' };

const withText = (entries: Array<[string, string | undefined]>): Obj =>
  Object.fromEntries(entries.filter((entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1] !== ''));

/** A vCard as the API's contact object; the card's `displayName` when it has no FN of its own. */
export function contactOfVcard(card: { displayName: string; vcard: string }): Obj {
  const props = properties(card.vcard);
  const first = (name: string) => props.find((p) => p.name === name);
  const all = (name: string) => props.filter((p) => p.name === name);

  const n = first('N');
  const [last, given, middle, prefix, suffix] = n ? splitUnescaped(n.value, ';').map((part) => unescape(part).trim()) : [];
  const fn = first('FN');
  const name = withText([
    ['formatted_name', (fn && unescape(fn.value).trim()) || card.displayName],
    ['first_name', given],
    ['last_name', last],
    ['middle_name', middle],
    ['prefix', prefix],
    ['suffix', suffix],
  ]);

  const phones = all('TEL').flatMap((p) => {
    // `tel:` URIs (vCard 4.0) carry the number after the scheme.
    const phone = unescape(p.value).replace(/^tel:/i, '').trim();
    if (!phone) return [];
    // The network's apps put the account's digits in a `waid` parameter; the API calls it `wa_id`.
    const waId = p.params.get('WAID')?.[0];
    return [withText([['phone', phone], ['type', typeOf(p, PHONE_TYPES)], ['wa_id', waId && /^\d{1,20}$/.test(waId) ? waId : undefined]])];
  });
  const emails = all('EMAIL').flatMap((p) => {
    const email = unescape(p.value).trim();
    return email ? [withText([['email', email], ['type', typeOf(p, PLACE_TYPES)]])] : [];
  });
  const urls = all('URL').flatMap((p) => {
    const url = unescape(p.value).trim();
    return url ? [withText([['url', url], ['type', typeOf(p, PLACE_TYPES)]])] : [];
  });
  const addresses = all('ADR').flatMap((p) => {
    // ADR: post office box; extended; street; city; region; postal code; country.
    const [, , street, city, state, zip, country] = splitUnescaped(p.value, ';').map((part) => unescape(part).trim());
    const address = withText([['street', street], ['city', city], ['state', state], ['zip', zip], ['country', country], ['type', typeOf(p, PLACE_TYPES)]]);
    return Object.keys(address).some((key) => key !== 'type') ? [address] : [];
  });

  const orgProperty = first('ORG');
  const [company, department] = orgProperty ? splitUnescaped(orgProperty.value, ';').map((part) => unescape(part).trim()) : [];
  const title = first('TITLE');
  const org = withText([['company', company], ['department', department], ['title', title && unescape(title.value).trim()]]);

  // The API takes a birthday as YYYY-MM-DD only.
  const bday = first('BDAY')?.value.trim();
  const birthday = bday && /^\d{4}-?\d{2}-?\d{2}$/.test(bday) ? `${bday.slice(0, 4)}-${bday.replace(/-/g, '').slice(4, 6)}-${bday.replace(/-/g, '').slice(6, 8)}` : undefined;

  return {
    name,
    ...(phones.length ? { phones } : {}),
    ...(emails.length ? { emails } : {}),
    ...(urls.length ? { urls } : {}),
    ...(addresses.length ? { addresses } : {}),
    ...(Object.keys(org).length ? { org } : {}),
    ...(birthday ? { birthday } : {}),
  };
}
