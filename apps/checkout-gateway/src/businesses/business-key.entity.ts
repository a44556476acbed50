import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/**
 * A business's API key pair: the key hashed for lookup and sealed for webhook signing, the
 * secret hashed; never either in clear. `expiresAt` is null for the pair in use and set when it
 * is rolled.
 */
@Entity({ name: 'business_keys' })
export class BusinessKey {
  @PrimaryColumn('text', { name: 'api_key_hash' })
  apiKeyHash!: string;

  @Column('text', { name: 'business_id' })
  businessId!: string;

  /** The key's prefix and last four characters, for people; null for keys issued before rotation. */
  @Column('text', { name: 'api_key_hint', nullable: true })
  apiKeyHint!: string | null;

  @Column('text', { name: 'api_key_sealed' })
  apiKeySealed!: string;

  @Column('text', { name: 'api_secret_hash' })
  apiSecretHash!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column('timestamptz', { name: 'expires_at', nullable: true })
  expiresAt!: Date | null;

  @Column('timestamptz', { name: 'expiry_recorded_at', nullable: true })
  expiryRecordedAt!: Date | null;
}
