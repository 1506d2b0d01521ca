// What a website's Consent tab reads: the latest records of every website, grouped on the client.

/** Records the Consent tab fetches to group on the client. */
export const consentRecordsFetched = 1000;
