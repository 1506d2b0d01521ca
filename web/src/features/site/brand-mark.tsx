// The product's mark in headers: the admin-uploaded logo when there is one, else the company name.
import { ShieldCheck } from 'lucide-react';
import { cn } from '../../lib/cn';
import { getCompanyName, type Branding } from './queries';

export function BrandMark({ branding, className }: { branding: Branding | null | undefined; className?: string }) {
  const companyName = getCompanyName(branding);
  if (branding?.logoUrl) {
    return <img src={branding.logoUrl} alt={companyName} className={cn('h-8 w-auto max-w-40 object-contain', className)} />;
  }
  return (
    <span className={cn('flex items-center gap-2 text-lg font-bold', className)}>
      <ShieldCheck className="size-6 text-primary" aria-hidden />
      {companyName}
    </span>
  );
}
