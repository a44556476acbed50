import { accessSync, constants } from 'node:fs';

/** SASL mechanisms a cluster may ask for: SCRAM (Strimzi, MSK, Confluent Platform) and PLAIN (Confluent Cloud). */
export const kafkaSaslMechanisms = ['scram-sha-512', 'scram-sha-256', 'plain'] as const;
export type KafkaSaslMechanism = (typeof kafkaSaslMechanisms)[number];

/** The Kafka connection settings of PlatformEnv, as the checks below read them. */
export interface KafkaSecuritySettings {
  NODE_ENV: string;
  KAFKA_TLS: boolean;
  KAFKA_TLS_CA_FILE?: string;
  KAFKA_TLS_CERT_FILE?: string;
  KAFKA_TLS_KEY_FILE?: string;
  KAFKA_SASL_MECHANISM?: KafkaSaslMechanism;
  KAFKA_SASL_USERNAME?: string;
  KAFKA_SASL_USERNAME_FILE?: string;
  KAFKA_SASL_PASSWORD?: string;
  KAFKA_SASL_PASSWORD_FILE?: string;
}

const readable = (path: string) => {
  try {
    accessSync(path, constants.R_OK);
    return true;
  } catch {
    return false;
  }
};

/**
 * What is missing or contradictory in the Kafka connection settings, one line per variable:
 * a setting given by half would connect otherwise than its operator meant (in plain text with
 * a CA file set, say), so it stops the app instead. Values are never named, only variables.
 */
export function kafkaSecurityProblems(env: KafkaSecuritySettings): string[] {
  const problems: string[] = [];
  const files = ['KAFKA_TLS_CA_FILE', 'KAFKA_TLS_CERT_FILE', 'KAFKA_TLS_KEY_FILE'] as const;
  for (const name of files) {
    const path = env[name];
    if (path === undefined) continue;
    if (!env.KAFKA_TLS) problems.push(`${name}: is set, so KAFKA_TLS must be true`);
    if (!readable(path)) problems.push(`${name}: names no readable file`);
  }
  if ((env.KAFKA_TLS_CERT_FILE === undefined) !== (env.KAFKA_TLS_KEY_FILE === undefined)) {
    const missing = env.KAFKA_TLS_CERT_FILE === undefined ? 'KAFKA_TLS_CERT_FILE' : 'KAFKA_TLS_KEY_FILE';
    problems.push(`${missing}: a client certificate needs both KAFKA_TLS_CERT_FILE and KAFKA_TLS_KEY_FILE`);
  }
  for (const secret of ['KAFKA_SASL_USERNAME', 'KAFKA_SASL_PASSWORD'] as const) {
    const [inline, file] = [env[secret], env[`${secret}_FILE`]];
    if (inline !== undefined && file !== undefined) {
      problems.push(`${secret}_FILE: is set as well as ${secret}; give one of them`);
    }
    if (file !== undefined && !readable(file)) problems.push(`${secret}_FILE: names no readable file`);
    if (env.KAFKA_SASL_MECHANISM === undefined && (inline !== undefined || file !== undefined)) {
      problems.push(`KAFKA_SASL_MECHANISM: must be set when ${inline !== undefined ? secret : `${secret}_FILE`} is`);
    }
    if (env.KAFKA_SASL_MECHANISM !== undefined && inline === undefined && file === undefined) {
      problems.push(`${secret}: is required (or ${secret}_FILE) when KAFKA_SASL_MECHANISM is set`);
    }
  }
  // PLAIN sends the password as it is: only inside TLS in production.
  if (env.KAFKA_SASL_MECHANISM === 'plain' && !env.KAFKA_TLS && env.NODE_ENV === 'production') {
    problems.push(
      'KAFKA_TLS: must be true with KAFKA_SASL_MECHANISM=plain in production (it sends the password as it is)',
    );
  }
  return problems;
}
