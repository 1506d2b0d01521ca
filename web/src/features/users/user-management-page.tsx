// User Management (/user-management, admins): summary tiles, search and tier filter, the user table
// with edit, a password reset link to hand over, and delete, invitations, and the available plans.
import { useQuery } from '@tanstack/react-query';
import { Search } from 'lucide-react';
import { useState } from 'react';
import { PageHeader } from '../../components/page-header';
import { EmptyState, ErrorState, LoadingState } from '../../components/query-state';
import { Badge, type BadgeProps } from '../../components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Input } from '../../components/ui/input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../components/ui/select';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../components/ui/table';
import { formatCount, formatDateTime, formatNumber, formatPrice } from '../../lib/format';
import {
  adminSubscriptionPlansQueryOptions,
  getTierLabel,
  getUserDisplayName,
  managedUsersQueryOptions,
  subscriptionTiers,
  type ManagedUser,
} from './queries';
import { PasswordResetLinkDialog } from './password-reset-dialog';
import { DeleteUserButton, EditUserDialog, InviteUserDialog } from './user-dialogs';

const allTiers = 'all';

/** Status badge styles of spec section 4: active default, cancelled secondary, expired destructive. */
function getStatusVariant(status: string): BadgeProps['variant'] {
  if (status === 'active') return 'default';
  if (status === 'cancelled') return 'secondary';
  if (status === 'expired') return 'destructive';
  return 'outline';
}

export function filterUsers(users: ManagedUser[], search: string, tier: string): ManagedUser[] {
  const needle = search.trim().toLowerCase();
  return users.filter((user) => {
    if (tier !== allTiers && user.subscriptionTier !== tier) return false;
    if (!needle) return true;
    return [user.email, user.firstName, user.lastName].some((value) => value?.toLowerCase().includes(needle));
  });
}

export function UserManagementPage() {
  const users = useQuery(managedUsersQueryOptions());
  const plans = useQuery(adminSubscriptionPlansQueryOptions());
  const [search, setSearch] = useState('');
  const [tier, setTier] = useState(allTiers);
  const planList = plans.data ?? [];

  return (
    <>
      <PageHeader title="User Management" description="Users, their plans and limits." action={<InviteUserDialog plans={planList} />} />
      {users.isPending ? (
        <LoadingState />
      ) : users.isError ? (
        <ErrorState title="Users could not be loaded." error={users.error} />
      ) : (
        <>
          <div className="mb-6 grid grid-cols-2 gap-4 xl:grid-cols-4">
            <SummaryTile label="Total users" value={users.data.length} />
            <SummaryTile label="Active users" value={users.data.filter((user) => user.isActive).length} />
            <SummaryTile label="Paid plans" value={users.data.filter((user) => user.subscriptionTier !== 'free').length} />
            <SummaryTile label="Websites" value={users.data.reduce((sum, user) => sum + user.websiteCount, 0)} />
          </div>
          <Card>
            <CardHeader className="gap-4 sm:flex-row sm:items-center sm:justify-between">
              <CardTitle>Users</CardTitle>
              <div className="flex flex-col gap-2 sm:flex-row">
                <div className="relative">
                  <Search className="absolute top-3 left-3 size-4 text-muted-foreground" aria-hidden />
                  <Input
                    type="search"
                    aria-label="Search users"
                    placeholder="Search by name or email"
                    className="pl-9 sm:w-64"
                    value={search}
                    onChange={(event) => setSearch(event.target.value)}
                  />
                </div>
                <Select value={tier} onValueChange={setTier}>
                  <SelectTrigger aria-label="Filter by tier" className="sm:w-44">
                    <SelectValue />
                  </SelectTrigger>
                  <SelectContent>
                    <SelectItem value={allTiers}>All tiers</SelectItem>
                    {subscriptionTiers.map((item) => (
                      <SelectItem key={item} value={item}>
                        {getTierLabel(item, planList)}
                      </SelectItem>
                    ))}
                  </SelectContent>
                </Select>
              </div>
            </CardHeader>
            <CardContent>
              <UsersTable users={filterUsers(users.data, search, tier)} plans={planList} />
            </CardContent>
          </Card>
        </>
      )}
      <h2 className="mt-8 mb-4 text-xl font-semibold">Plans</h2>
      {plans.isPending ? (
        <LoadingState />
      ) : plans.isError ? (
        <p className="text-muted-foreground">No data available</p>
      ) : (
        <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
          {plans.data.map((plan) => (
            <Card key={plan.id}>
              <CardHeader>
                <CardTitle>{plan.displayName}</CardTitle>
                <CardDescription>{formatPrice(plan.price)}/month</CardDescription>
              </CardHeader>
              <CardContent className="text-sm text-muted-foreground">
                {formatCount(plan.maxWebsites, 'website')} · {formatCount(plan.maxConsentsPerMonth, 'consent')} per month
              </CardContent>
            </Card>
          ))}
        </div>
      )}
    </>
  );
}

function SummaryTile({ label, value }: { label: string; value: number }) {
  return (
    <Card>
      <CardHeader className="pb-2">
        <CardDescription>{label}</CardDescription>
        <CardTitle className="text-3xl">{formatNumber(value)}</CardTitle>
      </CardHeader>
    </Card>
  );
}

type Plans = Parameters<typeof EditUserDialog>[0]['plans'];

function UserName({ user }: { user: ManagedUser }) {
  const name = getUserDisplayName(user);
  return (
    <div className="min-w-0">
      <p className="font-medium break-words">{name}</p>
      {user.email && user.email !== name ? <p className="text-xs wrap-anywhere text-muted-foreground">{user.email}</p> : null}
    </div>
  );
}

function AccountBadges({ user }: { user: ManagedUser }) {
  return (
    <div className="flex flex-wrap gap-1">
      {user.isActive ? <Badge variant="success">Active</Badge> : <Badge variant="secondary">Inactive</Badge>}
      {user.status === 'invited' ? <Badge variant="outline">Invited</Badge> : null}
    </div>
  );
}

function UserActions({ user, plans }: { user: ManagedUser; plans: Plans }) {
  return (
    <div className="flex shrink-0 justify-end gap-1">
      <EditUserDialog user={user} plans={plans} />
      {user.status === 'registered' ? <PasswordResetLinkDialog user={user} /> : null}
      <DeleteUserButton user={user} />
    </div>
  );
}

const lastActivityOf = (user: ManagedUser) => (user.lastActivity ? formatDateTime(user.lastActivity) : '—');

function UsersTable({ users, plans }: { users: ManagedUser[]; plans: Plans }) {
  if (users.length === 0) return <EmptyState title="No data available" description="No users match the search and filter." />;
  return (
    <>
      {/* Below xl the table would not fit beside the sidebar: one card per user instead. */}
      <ul className="divide-y xl:hidden">
        {users.map((user) => (
          <li key={user.id} className="space-y-3 py-4">
            <div className="flex items-start justify-between gap-3">
              <UserName user={user} />
              <UserActions user={user} plans={plans} />
            </div>
            <dl className="grid grid-cols-[auto_1fr] items-center gap-x-4 gap-y-1.5 text-sm">
              <dt className="text-muted-foreground">Plan</dt>
              <dd className="flex flex-wrap gap-1">
                <Badge variant="outline">{getTierLabel(user.subscriptionTier, plans)}</Badge>
                <Badge variant={getStatusVariant(user.subscriptionStatus)}>{user.subscriptionStatus}</Badge>
              </dd>
              <dt className="text-muted-foreground">Account</dt>
              <dd>
                <AccountBadges user={user} />
              </dd>
              <dt className="text-muted-foreground">Websites</dt>
              <dd>
                {formatNumber(user.websiteCount)} of {formatNumber(user.maxWebsites)}
              </dd>
              <dt className="text-muted-foreground">Consents</dt>
              <dd>
                {formatNumber(user.consentCount)} (limit {formatNumber(user.maxConsentsPerMonth)} a month) <OverQuotaBadge user={user} />
              </dd>
              <dt className="text-muted-foreground">Last activity</dt>
              <dd>{lastActivityOf(user)}</dd>
            </dl>
          </li>
        ))}
      </ul>
      <div className="hidden xl:block">
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead>User</TableHead>
              <TableHead>Tier</TableHead>
              <TableHead>Status</TableHead>
              <TableHead>Websites</TableHead>
              <TableHead>Consents</TableHead>
              <TableHead>Account</TableHead>
              <TableHead>Last activity</TableHead>
              <TableHead>
                <span className="sr-only">Actions</span>
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {users.map((user) => (
              <TableRow key={user.id}>
                <TableCell className="max-w-56">
                  <UserName user={user} />
                </TableCell>
                <TableCell>
                  <Badge variant="outline">{getTierLabel(user.subscriptionTier, plans)}</Badge>
                </TableCell>
                <TableCell>
                  <Badge variant={getStatusVariant(user.subscriptionStatus)}>{user.subscriptionStatus}</Badge>
                </TableCell>
                <TableCell className="text-sm whitespace-nowrap">
                  {formatNumber(user.websiteCount)} of {formatNumber(user.maxWebsites)}
                </TableCell>
                <TableCell className="text-sm whitespace-nowrap">
                  <p>{formatNumber(user.consentCount)}</p>
                  <p className="text-xs text-muted-foreground">limit {formatNumber(user.maxConsentsPerMonth)}/mo</p>
                  <OverQuotaBadge user={user} />
                </TableCell>
                <TableCell>
                  <AccountBadges user={user} />
                </TableCell>
                <TableCell className="text-sm">{lastActivityOf(user)}</TableCell>
                <TableCell>
                  <UserActions user={user} plans={plans} />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
    </>
  );
}

/** Past the monthly consent limit: nothing is refused (every consent is recorded); the admin sees it here. */
function OverQuotaBadge({ user }: { user: ManagedUser }) {
  if (!user.consentQuotaExceeded) return null;
  return (
    <Badge variant="destructive" title={`${formatNumber(user.currentMonthConsents ?? 0)} consents this month`}>
      Over monthly limit
    </Badge>
  );
}
