import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

export type BusinessMode = 'test' | 'live';

/** A partner. Its API key is kept hashed for lookup and sealed for webhook signing; never in clear. */
@Entity({ name: 'businesses' })
export class Business {
  @PrimaryColumn('text')
  id!: string;

  @Column('text')
  name!: string;

  @Column('text')
  mode!: BusinessMode;

  @Index('businesses_api_key_hash_key', { unique: true })
  @Column('text', { name: 'api_key_hash' })
  apiKeyHash!: string;

  @Column('text', { name: 'api_key_sealed' })
  apiKeySealed!: string;

  @Column('text', { name: 'api_secret_hash' })
  apiSecretHash!: string;

  @Column('text', { name: 'pos_encryption_key_sealed' })
  posEncryptionKeySealed!: string;

  @Column('text', { name: 'webhook_url', nullable: true })
  webhookUrl!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
