// The baseline for bench/pos.mjs: a bare Fastify route answering a constant envelope.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.post('/pos', async () => ({
  status: true,
  statusCode: 200,
  message: 'Transaction received',
  data: { reference: 'constant', transactionStatus: 'PROCESSING' },
}));
await app.listen({ port: Number(process.env.PORT ?? 14299), host: '127.0.0.1' });
