// Signing out. Admins end their session with POST /api/admin/logout and return to the admin login;
// regular users with POST /api/logout and go to the landing page. (GET /api/logout only asks to
// confirm: a sign-out must not be something another site can trigger with a link.)
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useToast } from '../../components/toaster';
import { apiRequest } from '../../lib/api';
import { currentAdminQueryOptions, currentUserQueryOptions } from '../auth/queries';
import type { NavigationMode } from './navigation';

export function useLogout(mode: NavigationMode) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { toast } = useToast();
  const [busy, setBusy] = useState(false);

  async function logout() {
    setBusy(true);
    try {
      if (mode === 'user') {
        await apiRequest('POST', '/api/logout');
        queryClient.setQueryData(currentUserQueryOptions().queryKey, null);
        toast({ title: 'You have been successfully logged out.' });
        await navigate({ to: '/' });
        return;
      }
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
