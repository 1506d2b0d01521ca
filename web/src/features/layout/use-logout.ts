// Signing out. Admins end their session with POST /api/admin/logout and return to the admin login;
// regular users are sent to /api/logout, which ends the session and redirects them.
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useToast } from '../../components/toaster';
import { apiRequest } from '../../lib/api';
import { currentAdminQueryOptions } from '../auth/queries';
import type { NavigationMode } from './navigation';

export function useLogout(mode: NavigationMode) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { toast } = useToast();
  const [busy, setBusy] = useState(false);

  async function logout() {
    if (mode === 'user') {
      window.location.assign('/api/logout');
      return;
    }
    setBusy(true);
    try {
      await apiRequest('POST', '/api/admin/logout');
      queryClient.setQueryData(currentAdminQueryOptions().queryKey, null);
      toast({ title: 'You have been successfully logged out.' });
      await navigate({ to: '/admin/login' });
    } catch {
      toast({ title: 'Failed to logout. Please try again.', variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  }

  return { logout, busy };
}
