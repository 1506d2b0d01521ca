// Picks one of the owner's websites (shown as name and domain), optionally with an 'All Websites'
// choice. Long names wrap instead of being cut off.
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
  wrappingTrigger,
} from "../../components/ui/select";
import type { Website } from "./queries";

export const allWebsitesValue = "all";

export function WebsiteSelect({
  id,
  websites,
  value,
  onValueChange,
  placeholder = "Select a website",
  allWebsitesLabel,
  disabled,
}: {
  id: string;
  websites: Website[];
  /** A website id, `allWebsitesValue`, or null for none chosen yet (the placeholder shows). */
  value: string | null;
  onValueChange: (value: string) => void;
  placeholder?: string;
  /** When given, offers every website at once under this label. */
  allWebsitesLabel?: string;
  disabled?: boolean;
}) {
  return (
    <Select
      value={value ?? ""}
      onValueChange={onValueChange}
      disabled={disabled}
    >
      <SelectTrigger id={id} className={wrappingTrigger}>
        <SelectValue placeholder={placeholder} />
      </SelectTrigger>
      <SelectContent>
        {allWebsitesLabel ? (
          <SelectItem value={allWebsitesValue}>{allWebsitesLabel}</SelectItem>
        ) : null}
        {websites.map((website) => (
          <SelectItem key={website.id} value={website.id}>
            {website.name} ({website.domain})
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}
