import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Reader;
import java.io.Writer;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The sandbox test's player for the {@code java} runtime (tests/sandbox/run.sh):
 * a Blokus 2027 player with nothing but the JDK, built into a jar by the test.
 *
 * <p>It joins with the contest's arguments ({@code --host H --port P
 * --reservation CODE}), places each of its colours' first piece (the state's
 * start piece, unrotated, in a free 5x5 box at the top or left border: the
 * piece's bounding box starts on the border, so the piece touches it), and
 * passes every later turn. So it plays a complete, regular game (and loses).
 * Prints the Java version it runs on and one line per move, for the test.
 */
public final class Player {
    private static final String[] COLORS = {"BLUE", "YELLOW", "RED", "GREEN"};
    private static final int SIZE = 20;
    /** Top-left corners of 5x5 boxes on the top and the left border. */
    private static final int[][] BOXES = {
        {0, 0}, {5, 0}, {10, 0}, {15, 0}, {0, 5}, {0, 10}, {0, 15},
    };
    private static final Pattern FIELD =
        Pattern.compile("<field x=\"(\\d+)\" y=\"(\\d+)\"");

    public static void main(String[] args) throws IOException {
        Map<String, String> options = new HashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            options.put(args[i], args[i + 1]);
        }
        System.out.println("java " + System.getProperty("java.version") + " on "
            + System.getProperty("os.name"));
        try (Socket socket = new Socket(options.get("--host"),
                Integer.parseInt(options.get("--port")))) {
            Writer out = new OutputStreamWriter(socket.getOutputStream(), StandardCharsets.UTF_8);
            Reader in = new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8);
            send(out, "<protocol><joinPrepared reservationCode=\""
                + options.get("--reservation") + "\"/>");
            play(in, out);
        }
    }

    private static void play(Reader in, Writer out) throws IOException {
        StringBuilder buffer = new StringBuilder();
        char[] chunk = new char[16384];
        String state = "";
        while (true) {
            int read = in.read(chunk);
            if (read < 0) {
                System.out.println("the server closed the connection");
                return;
            }
            buffer.append(chunk, 0, read);
            int end;
            while ((end = buffer.indexOf("</room>")) >= 0) {
                String message = buffer.substring(0, end + "</room>".length());
                buffer.delete(0, end + "</room>".length());
                if (message.contains("class=\"memento\"")) {
                    state = message;
                } else if (message.contains("class=\"moveRequest\"")) {
                    send(out, move(attribute(message, "roomId"), state));
                } else if (message.contains("class=\"result\"")) {
                    System.out.println("the game is over");
                }
            }
            if (buffer.indexOf("</protocol>") >= 0) {
                return;
            }
        }
    }

    /** The move for the colour on turn in {@code state}. */
    private static String move(String room, String state) {
        int turn = Integer.parseInt(attribute(state, "turn"));
        String color = COLORS[turn % 4];
        String shapes = color.toLowerCase() + "Shapes";
        Matcher list = Pattern.compile("<" + shapes + ">(.*?)</" + shapes + ">", Pattern.DOTALL)
            .matcher(state);
        int unplaced = list.find() ? list.group(1).split("<shape>", -1).length - 1 : 0;
        if (unplaced == 21) {
            boolean[][] taken = new boolean[SIZE][SIZE];
            Matcher field = FIELD.matcher(state);
            while (field.find()) {
                taken[Integer.parseInt(field.group(2))][Integer.parseInt(field.group(1))] = true;
            }
            for (int[] box : BOXES) {
                if (free(taken, box[0], box[1])) {
                    String piece = attribute(state, "startPiece");
                    System.out.println("placed " + piece + " for " + color
                        + " at " + box[0] + "," + box[1]);
                    return "<room roomId=\"" + room + "\"><data class=\"sc.plugin2027.SetMove\">"
                        + "<piece color=\"" + color + "\" kind=\"" + piece
                        + "\" rotation=\"NONE\" isFlipped=\"false\">"
                        + "<position x=\"" + box[0] + "\" y=\"" + box[1] + "\"/>"
                        + "</piece></data></room>";
                }
            }
            System.out.println("no free box for " + color + "'s first piece");
        }
        System.out.println("passed for " + color);
        return "<room roomId=\"" + room + "\"><data class=\"sc.plugin2027.SkipMove\"><color>"
            + color + "</color></data></room>";
    }

    private static boolean free(boolean[][] taken, int left, int top) {
        for (int y = top; y < top + 5; y++) {
            for (int x = left; x < left + 5; x++) {
                if (taken[y][x]) {
                    return false;
                }
            }
        }
        return true;
    }

    private static String attribute(String message, String name) {
        Matcher value = Pattern.compile(name + "=\"([^\"]*)\"").matcher(message);
        if (!value.find()) {
            throw new IllegalStateException("no " + name + " in " + message);
        }
        return value.group(1);
    }

    private static void send(Writer out, String text) throws IOException {
        out.write(text);
        out.flush();
    }
}
