package ng.payments.cardhost;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

import org.jpos.iso.ISOBinaryField;
import org.jpos.iso.ISOBinaryFieldPackager;
import org.jpos.iso.ISOMsg;
import org.jpos.iso.ISOUtil;
import org.jpos.iso.packager.ISO87APackager;

/**
 * jPOS's own packing, line by line, so tests can compare the platform's codec with it:
 * {@code pack} reads JSON lines {@code {"mti":..,"fields":{"2":..}}} and prints the packed bytes as
 * hex (no length header); {@code unpack} reads hex lines and prints JSON lines. Binary fields (52,
 * 64, 128) travel as upper-case hex. A line that fails prints {@code {"error":..}} and the next
 * one goes on: one JVM serves any number of lines.
 */
public final class IsoTool {
    private static final ISO87APackager PACKAGER = new ISO87APackager();

    public static void main(String[] args) throws Exception {
        if (args.length != 1 || !(args[0].equals("pack") || args[0].equals("unpack"))) {
            System.err.println("usage: IsoTool pack|unpack  (lines on stdin)");
            System.exit(2);
        }
        boolean packing = args[0].equals("pack");
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        // Exactly one line out for each line in, so a caller can match answers by order.
        for (String line; (line = in.readLine()) != null; ) {
            try {
                out.println(packing ? pack(line) : unpack(line));
            } catch (Exception e) {
                out.println(Json.write(Map.of("error", e.toString())));
            }
            out.flush();
        }
    }

    private static String pack(String line) throws Exception {
        if (!(Json.parse(line) instanceof Map<?, ?> json) || !(json.get("fields") instanceof Map<?, ?> fields)) {
            throw new IllegalArgumentException("expected {\"mti\": .., \"fields\": {..}}");
        }
        ISOMsg message = new ISOMsg(String.valueOf(json.get("mti")));
        message.setPackager(PACKAGER);
        for (Map.Entry<?, ?> field : fields.entrySet()) {
            int number = Integer.parseInt(String.valueOf(field.getKey()));
            String value = String.valueOf(field.getValue());
            if (isBinary(number)) message.set(number, ISOUtil.hex2byte(value));
            else message.set(number, value);
        }
        return ISOUtil.hexString(message.pack());
    }

    private static String unpack(String line) throws Exception {
        ISOMsg message = new ISOMsg();
        message.setPackager(PACKAGER);
        message.unpack(ISOUtil.hex2byte(line.trim()));
        Map<String, Object> fields = new LinkedHashMap<>();
        for (int number = 2; number <= message.getMaxField(); number++) {
            if (!message.hasField(number)) continue;
            fields.put(String.valueOf(number), message.getComponent(number) instanceof ISOBinaryField
                    ? ISOUtil.hexString(message.getBytes(number))
                    : message.getString(number));
        }
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("mti", message.getMTI());
        json.put("fields", fields);
        return Json.write(json);
    }

    private static boolean isBinary(int number) {
        return PACKAGER.getFieldPackager(number) instanceof ISOBinaryFieldPackager;
    }
}
