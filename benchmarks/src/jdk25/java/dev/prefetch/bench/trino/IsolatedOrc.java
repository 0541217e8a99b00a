package dev.prefetch.bench.trino;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarInputStream;

/**
 * Trino's ORC reader in a class loader of its own.
 *
 * <p>Why: Trino's ORC reader parses ORC's protobuf messages with {@code orc-format}'s
 * relocated-protobuf build, orc-core (the reference reader of the benchmarks and of our ORC format)
 * with its plain build, and both builds name the messages' class {@code org.apache.orc.OrcProto}:
 * one class path cannot hold both. The build copies the relocated build into the benchmarks'
 * resources ({@value #NESTED_JAR}, left off the class path), and this loader defines, ahead of its
 * parent, the relocated {@code OrcProto} and protobuf from it, and Trino's ORC classes ({@code
 * io.trino.orc}) and our reader of them ({@code dev.prefetch.bench.trino.orc}) from the parent's
 * class files, so that they link against the relocated build. Everything else (Trino's SPI, the
 * blocks, our consumer) comes from the parent, and the loaded scan is used through {@link
 * TrinoScan}, a parent type.
 *
 * <p>One loader per JVM, made on first use; its classes stay loaded with it.
 */
final class IsolatedOrc {

  /** The relocated-protobuf {@code orc-format} jar, a resource of the benchmarks. */
  static final String NESTED_JAR = "trino-orc/orc-format-shaded-protobuf.jar";

  private static final String SCAN_CLASS = "dev.prefetch.bench.trino.orc.TrinoOrcScan";

  private static ClassLoader loader;

  private IsolatedOrc() {}

  /** A Trino ORC scan of {@code columns} of {@code file} under {@code storage}. */
  static TrinoScan scan(Path file, String storage, List<String> columns) {
    try {
      return (TrinoScan)
          loader()
              .loadClass(SCAN_CLASS)
              .getConstructor(Path.class, String.class, List.class)
              .newInstance(file, storage, columns);
    } catch (InvocationTargetException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw new IllegalStateException("cannot make Trino's ORC scan: " + e.getCause(), e);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot load Trino's ORC scan: " + e, e);
    }
  }

  private static synchronized ClassLoader loader() {
    if (loader == null) {
      ClassLoader parent = IsolatedOrc.class.getClassLoader();
      loader = new ChildFirst(parent, nestedClasses(parent));
    }
    return loader;
  }

  /** The class files of the nested jar, by class name. */
  private static Map<String, byte[]> nestedClasses(ClassLoader parent) {
    Map<String, byte[]> classes = new HashMap<>();
    try (InputStream in = parent.getResourceAsStream(NESTED_JAR)) {
      if (in == null) {
        throw new IllegalStateException(
            NESTED_JAR + " is not among the benchmarks' resources: build with a JDK 25");
      }
      try (JarInputStream jar = new JarInputStream(in)) {
        for (JarEntry entry; (entry = jar.getNextJarEntry()) != null; ) {
          String name = entry.getName();
          if (name.endsWith(".class")) {
            classes.put(
                name.substring(0, name.length() - ".class".length()).replace('/', '.'),
                jar.readAllBytes());
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + NESTED_JAR, e);
    }
    return classes;
  }

  /** Defines the isolated classes itself, ahead of its parent; the rest is the parent's. */
  private static final class ChildFirst extends ClassLoader {

    static {
      registerAsParallelCapable();
    }

    private final Map<String, byte[]> nested;

    ChildFirst(ClassLoader parent, Map<String, byte[]> nested) {
      super("trino-orc", parent);
      this.nested = Map.copyOf(nested);
    }

    private static boolean isolated(String name) {
      return name.startsWith("io.trino.orc.") || name.startsWith("dev.prefetch.bench.trino.orc.");
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
      synchronized (getClassLoadingLock(name)) {
        Class<?> c = findLoadedClass(name);
        if (c == null) {
          byte[] bytes = nested.get(name);
          if (bytes == null && isolated(name)) {
            bytes = parentClassFile(name);
          }
          if (bytes != null) {
            c = defineClass(name, bytes, 0, bytes.length);
          }
        }
        if (c == null) {
          return super.loadClass(name, resolve);
        }
        if (resolve) {
          resolveClass(c);
        }
        return c;
      }
    }

    private byte[] parentClassFile(String name) throws ClassNotFoundException {
      try (InputStream in = getParent().getResourceAsStream(name.replace('.', '/') + ".class")) {
        if (in == null) {
          throw new ClassNotFoundException(name);
        }
        return in.readAllBytes();
      } catch (IOException e) {
        throw new ClassNotFoundException(name, e);
      }
    }
  }
}
