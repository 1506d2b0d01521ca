// Consent records as the dashboard and a website's Consent Data tab show them: one line per choice
// on phones, the table of spec section 2 on wider screens; with a Website column when given names.
// A partial consent reads 'Partial' with the purposes granted.
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../components/ui/table';
import { formatDateTime } from '../../lib/format';
import { ConsentRecordChoice, formatLocation } from './consent-choice';
import type { ConsentRecord } from './queries';

export function ConsentRecordsList({ records, websiteName }: { records: readonly ConsentRecord[]; websiteName?: (record: ConsentRecord) => string }) {
  return (
    <>
      <ul className="divide-y md:hidden">
        {records.map((record) => (
          <li key={record.id} className="flex items-start justify-between gap-3 py-3">
            <div className="min-w-0 space-y-0.5">
              {websiteName ? (
                <>
                  <p className="font-medium break-words">{websiteName(record)}</p>
                  <p className="text-sm text-muted-foreground">{formatDateTime(record.timestamp)}</p>
                </>
              ) : (
                <p className="text-sm font-medium">{formatDateTime(record.timestamp)}</p>
              )}
              <p className="text-xs wrap-anywhere text-muted-foreground">
                {formatLocation(record)} · <span className="font-mono">{record.ipAddress || 'Unknown'}</span>
              </p>
            </div>
            <ConsentRecordChoice record={record} className="max-w-[50%] justify-end text-right" />
          </li>
        ))}
      </ul>
      <div className="hidden md:block">
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead>Timestamp</TableHead>
              {websiteName && <TableHead>Website</TableHead>}
              <TableHead>Consent</TableHead>
              <TableHead>Location</TableHead>
              <TableHead>IP Address</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {records.map((record) => (
              <TableRow key={record.id}>
                <TableCell className="whitespace-nowrap">{formatDateTime(record.timestamp)}</TableCell>
                {websiteName && <TableCell>{websiteName(record)}</TableCell>}
                <TableCell>
                  <ConsentRecordChoice record={record} />
                </TableCell>
                <TableCell>{formatLocation(record)}</TableCell>
                <TableCell className="font-mono text-xs">{record.ipAddress || 'Unknown'}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
    </>
  );
}
