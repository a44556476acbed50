import { BusinessMode } from '@payments/contracts';
import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** A partner. Its key pairs are in business_keys (BusinessKey). */
@Entity({ name: 'businesses' })
export class Business {
  @PrimaryColumn('text')
  id!: string;

  @Column('text')
  name!: string;

  @Column('text')
  mode!: BusinessMode;

  @Column('text', { name: 'pos_encryption_key_sealed' })
  posEncryptionKeySealed!: string;

  @Column('text', { name: 'webhook_url', nullable: true })
  webhookUrl!: string | null;

  /** The services that have not confirmed knowing the business yet; empty once its onboarding is complete. */
  @Column('text', { name: 'onboarding_awaits', array: true })
  onboardingAwaits!: string[];

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
