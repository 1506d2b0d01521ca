// Users: owners, registered or invited, with the subscription and limits admins set. Inline, so a
// registration signs in at once and an admin's change shows in the next list. Deleted users leave
// the read model.
import type { DbTransaction, StoredEvent } from '@consentry/infra';
import type { Projection } from '../projection';

export const usersProjection: Projection = {
  name: 'users',
  canHandle: ['UserRegistered', 'UserInvited', 'UserSubscriptionChanged', 'UserActivationChanged', 'UserNameChanged', 'UserEmailChanged', 'UserDeleted'],

  async apply(events: readonly StoredEvent[], tx: DbTransaction): Promise<void> {
    for (const event of events) {
      switch (event.type) {
        case 'UserRegistered': {
          const { userId, email, firstName, lastName, registeredAt } = event.data;
          // A completed invitation keeps the invited subscription; a fresh account gets its limits
          // from the UserSubscriptionChanged that follows in the same append.
          await tx.query({
            name: 'users-register',
            text: `INSERT INTO users (id, email, first_name, last_name, status, subscription_tier, subscription_status,
                                      max_websites, max_consents_per_month, registered_at, updated_at)
                   VALUES ($1, $2, $3, $4, 'registered', 'free', 'active', 0, 0, $5, $5)
                   ON CONFLICT (id) DO UPDATE
                     SET email = $2, first_name = $3, last_name = $4, status = 'registered', registered_at = $5, updated_at = $5`,
            values: [userId, email, firstName, lastName, registeredAt],
          });
          break;
        }
        case 'UserInvited': {
          const { userId, email, subscriptionTier, maxWebsites, maxConsentsPerMonth, invitedAt } = event.data;
          await tx.query({
            name: 'users-invite',
            text: `INSERT INTO users (id, email, status, subscription_tier, subscription_status, max_websites,
                                      max_consents_per_month, invited_at, updated_at)
                   VALUES ($1, $2, 'invited', $3, 'active', $4, $5, $6, $6)
                   ON CONFLICT (id) DO UPDATE
                     SET email = $2, subscription_tier = $3, max_websites = $4, max_consents_per_month = $5,
                         invited_at = $6, updated_at = $6`,
            values: [userId, email, subscriptionTier, maxWebsites, maxConsentsPerMonth, invitedAt],
          });
          break;
        }
        case 'UserSubscriptionChanged': {
          const { userId, subscriptionTier, subscriptionStatus, maxWebsites, maxConsentsPerMonth, changedAt } = event.data;
          await tx.query({
            name: 'users-change-subscription',
            text: `UPDATE users SET subscription_tier = $2, subscription_status = $3, max_websites = $4,
                                    max_consents_per_month = $5, updated_at = $6
                    WHERE id = $1`,
            values: [userId, subscriptionTier, subscriptionStatus, maxWebsites, maxConsentsPerMonth, changedAt],
          });
          break;
        }
        case 'UserActivationChanged':
          await tx.query({
            name: 'users-set-active',
            text: 'UPDATE users SET is_active = $2, updated_at = $3 WHERE id = $1',
            values: [event.data.userId, event.data.isActive, event.data.changedAt],
          });
          break;
        case 'UserNameChanged':
          await tx.query({
            name: 'users-rename',
            text: 'UPDATE users SET first_name = $2, last_name = $3, updated_at = $4 WHERE id = $1',
            values: [event.data.userId, event.data.firstName, event.data.lastName, event.data.changedAt],
          });
          break;
        case 'UserEmailChanged':
          await tx.query({
            name: 'users-change-email',
            text: 'UPDATE users SET email = $2, updated_at = $3 WHERE id = $1',
            values: [event.data.userId, event.data.email, event.data.changedAt],
          });
          break;
        case 'UserDeleted':
          await tx.query({ name: 'users-delete', text: 'DELETE FROM users WHERE id = $1', values: [event.data.userId] });
          break;
        default:
          break;
      }
    }
  },

  tables: ['users'],
};
