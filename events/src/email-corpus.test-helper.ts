// Addresses the email rule (identification.ts) must keep taking, and spellings it must refuse: markup
// and header injections seen in attacks on identification forms, and forms a mail server would take
// that leads never need. Shared by the events tests and the widget's agreement test.

/** What a mail server delivers to and a visitor types: each is taken, trimmed and lower-cased. */
export const acceptedEmails = [
  'ada@example.com',
  'ada+leads@example.com',
  'ada.lovelace@sub.example.co.uk',
  "o'brien@example.ie",
  'first_last-1@example.com',
  '=ada@example.com',
  'ada@xn--bcher-kva.example',
  'ada@bücher.example',
  'ÄDA@example.com',
  'ada@例え.テスト',
  'x@example.museum',
] as const;

/** Refused: markup, injections, and forms (quoted, literal, display name) a lead never needs. */
export const refusedEmails = [
  '"><svg/onload=alert(1)>@pt.example',
  '"<svg onload=alert(1)>"@pt.example',
  '"a b"@example.com',
  '<script>@example.com',
  'ada<script>@example.com',
  'ada@example.com<script>',
  'ada(comment)@example.com',
  'ada\\@example.com',
  'Ada <ada@example.com>',
  'ada@[127.0.0.1]',
  'ada@127.0.0.1',
  'ada@example.com\r\nbcc: eve@example.com',
  'ada\u0000@example.com',
  'ada\u202e@example.com',
  'ada@exa\u200bmple.com',
  'ada@\uff45xample.com',
  'a b@example.com',
  'ada..lovelace@example.com',
  '.ada@example.com',
  'ada.@example.com',
  'ada@example',
  'ada@localhost',
  'ada@example.c0m',
  'ada@example.com.',
  'ada@@example.com',
  'ada@exa_mple.com',
  'javascript:alert(1)//@example.com',
  'ada@example.com;eve@example.com',
  `${'é'.repeat(33)}@example.com`,
] as const;

/** Both lists, for tests that compare two implementations of the rule. */
export const emailCorpus: readonly string[] = [...acceptedEmails, ...refusedEmails];
