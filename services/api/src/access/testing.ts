// For tests of one route plugin on its own: the viewer named by test headers (x-test-user: <userId>,
// an owner; x-test-admin: 1, the admin `admin`). The session viewers are tested with the whole api.
import type { User } from '@consentry/projections';
import type { FastifyRequest } from 'fastify';
import type { Viewer, ViewerSource } from './viewer';

function testOwner(id: string): User {
  return {
    id,
    email: `${id}@owners.example.test`,
    firstName: null,
    lastName: null,
    status: 'registered',
    subscriptionTier: 'free',
    subscriptionStatus: 'active',
    maxWebsites: 10,
    maxConsentsPerMonth: 100_000,
    isActive: true,
    invitedAt: null,
    registeredAt: null,
    updatedAt: new Date(0).toISOString(),
  };
}

export function headerViewers(): ViewerSource {
  const viewerOf = async (request: FastifyRequest): Promise<Viewer> => {
    if (request.headers['x-test-admin'] === '1') return { user: null, adminUsername: 'admin' };
    const userId = request.headers['x-test-user'];
    if (typeof userId !== 'string' || userId === '') return { user: null, adminUsername: null };
    return { user: testOwner(userId), adminUsername: null };
  };
  return { viewerOf, reload: viewerOf };
}
