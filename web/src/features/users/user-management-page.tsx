// User Management (/user-management, admins): summary tiles, search and tier filter, the user table
// with edit and delete, invitations, and the available plans.
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
import { formatDateTime, formatNumber, formatPrice } from '../../lib/format';
import {
  adminSubscriptionPlansQueryOptions,
  getUserDisplayName,
  managedUsersQueryOptions,
  subscriptionTiers,
  type ManagedUser,
} from './queries';
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
          <div className="mb-6 grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
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
                        {item}
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
                {formatNumber(plan.maxWebsites)} websites · {formatNumber(plan.maxConsentsPerMonth)} consents per month
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

function UsersTable({ users, plans }: { users: ManagedUser[]; plans: Parameters<typeof EditUserDialog>[0]['plans'] }) {
  if (users.length === 0) return <EmptyState title="No data available" description="No users match the search and filter." />;
  return (
    <Table>
      <TableHeader>
        <TableRow>
          <TableHead>User</TableHead>
          <TableHead>Tier</TableHead>
          <TableHead>Status</TableHead>
          <TableHead>Limits</TableHead>
          <TableHead>Usage</TableHead>
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
            <TableCell>
              <p className="font-medium">{getUserDisplayName(user)}</p>
              {user.email ? <p className="text-xs text-muted-foreground">{user.email}</p> : null}
            </TableCell>
            <TableCell>
              <Badge variant="outline">{user.subscriptionTier}</Badge>
            </TableCell>
            <TableCell>
              <Badge variant={getStatusVariant(user.subscriptionStatus)}>{user.subscriptionStatus}</Badge>
            </TableCell>
            <TableCell className="text-sm whitespace-nowrap">
              {formatNumber(user.maxWebsites)} sites · {formatNumber(user.maxConsentsPerMonth)}/mo
            </TableCell>
            <TableCell className="text-sm whitespace-nowrap">
              {formatNumber(user.websiteCount)} sites · {formatNumber(user.consentCount)} consents
            </TableCell>
            <TableCell>
              {user.isActive ? <Badge variant="success">Active</Badge> : <Badge variant="secondary">Inactive</Badge>}
            </TableCell>
            <TableCell className="text-sm whitespace-nowrap">
              {user.lastActivity ? formatDateTime(user.lastActivity) : '—'}
            </TableCell>
            <TableCell>
              <div className="flex justify-end gap-1">
                <EditUserDialog user={user} plans={plans} />
                <DeleteUserButton user={user} />
              </div>
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
