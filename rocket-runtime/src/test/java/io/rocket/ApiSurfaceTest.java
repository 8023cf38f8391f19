package io.rocket;

import io.rocket.core.Application;
import io.rocket.core.KernelContext;
import io.rocket.core.Kernels;
import io.rocket.core.KeyParser;
import io.rocket.core.ResultCodec;
import io.rocket.core.ResultSink;
import io.rocket.core.summary.RunSummary;
import io.rocket.runtime.Rocket;
import io.rocket.runtime.RocketOptions;
import io.rocket.cluster.ClusterAuthToken;
import io.rocket.cluster.ClusterOptions;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The API an application's author touches names no JCuda and no JGroups type, so that neither library is part of
 * the contract: every public or protected method, constructor, field and record component of these classes, and of
 * every Rocket type their signatures name in turn, is checked.
 */
class ApiSurfaceTest {

    static final List<Class<?>> USER_API = List.of(Application.class, Kernels.class, KernelContext.class,
            ResultSink.class, ResultCodec.class, RocketOptions.class, ClusterOptions.class, Rocket.class,
            RunSummary.class, Main.class, KeyParser.class);

    private static final List<String> FORBIDDEN = List.of("jcuda.", "org.jgroups.");

    @Test
    void theUserApiNamesNoJcudaOrJgroupsType() {
        Walk walk = walk(USER_API);
        assertThat(walk.violations).as("public signatures naming JCuda or JGroups types").isEmpty();
        // The walk reached the Rocket types the listed classes expose, not only the listed ones.
        assertThat(walk.visited).contains(io.rocket.cluster.ClusterSecurity.class,
                io.rocket.core.DeviceBuffer.class, io.rocket.core.device.DeviceSpec.class, RunSummary.Failure.class);
    }

    @Test
    void theCheckFindsSuchTypes() {
        // field, constructor, method; and the record's component, its accessor and its constructor
        assertThat(walk(List.of(Leaky.class)).violations).hasSize(6)
                .anySatisfy(v -> assertThat(v).contains("field stream").contains("jcuda.driver.CUstream"))
                .anySatisfy(v -> assertThat(v).contains("members").contains("org.jgroups.Address"))
                .anySatisfy(v -> assertThat(v).contains("Leaky(").contains("org.jgroups.View"))
                .anySatisfy(v -> assertThat(v).contains("record component").contains("jcuda.Pointer"));
        // A runtime-internal class that does expose JGroups types (a JGroups plug-in), to show the walk sees real
        // signatures.
        assertThat(walk(List.of(ClusterAuthToken.class)).violations).isNotEmpty()
                .allSatisfy(v -> assertThat(v).contains("org.jgroups."));
    }

    /** Fixture: a class whose public signatures name forbidden types in each kind of member. */
    public static final class Leaky {
        public jcuda.driver.CUstream stream;
        private jcuda.driver.CUcontext hidden; // private: not part of the API

        public Leaky(List<? extends org.jgroups.View> views) {
        }

        public List<org.jgroups.Address> members() {
            return List.of();
        }

        /** Reached through a method's return type. */
        public Inner inner() {
            return null;
        }

        public record Inner(jcuda.Pointer pointer) {
        }
    }

    /** What a walk found. */
    record Walk(Set<Class<?>> visited, List<String> violations) {
    }

    /** Checks {@code roots} and every io.rocket type their public signatures name, transitively. */
    static Walk walk(List<Class<?>> roots) {
        Set<Class<?>> visited = new LinkedHashSet<>();
        Deque<Class<?>> queue = new ArrayDeque<>(roots);
        Set<String> violations = new LinkedHashSet<>();
        while (!queue.isEmpty()) {
            Class<?> type = queue.poll();
            if (!visited.add(type)) {
                continue;
            }
            for (Field f : type.getDeclaredFields()) {
                if (exposed(f.getModifiers()) && !f.isSynthetic()) {
                    check(type, "field " + f.getName(), List.of(f.getGenericType()), violations, queue);
                }
            }
            for (Method m : type.getDeclaredMethods()) {
                if (exposed(m.getModifiers()) && !m.isSynthetic() && !m.isBridge()) {
                    check(type, "method " + m.getName(), signature(m, m.getGenericReturnType()), violations, queue);
                }
            }
            for (Constructor<?> c : type.getDeclaredConstructors()) {
                if (exposed(c.getModifiers()) && !c.isSynthetic()) {
                    check(type, "constructor " + type.getSimpleName() + "(", signature(c, null), violations, queue);
                }
            }
            if (type.isRecord()) {
                for (RecordComponent rc : type.getRecordComponents()) {
                    check(type, "record component " + rc.getName(), List.of(rc.getGenericType()), violations, queue);
                }
            }
            List<Type> supertypes = new java.util.ArrayList<>(List.of(type.getGenericInterfaces()));
            if (type.getGenericSuperclass() != null) {
                supertypes.add(type.getGenericSuperclass());
            }
            check(type, "supertype", supertypes, violations, queue);
        }
        return new Walk(visited, List.copyOf(violations));
    }

    private static boolean exposed(int modifiers) {
        return Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers);
    }

    private static List<Type> signature(Executable e, Type returned) {
        List<Type> types = new java.util.ArrayList<>(List.of(e.getGenericParameterTypes()));
        types.addAll(List.of(e.getGenericExceptionTypes()));
        for (TypeVariable<?> v : e.getTypeParameters()) {
            types.addAll(List.of(v.getBounds()));
        }
        if (returned != null) {
            types.add(returned);
        }
        return types;
    }

    private static void check(Class<?> owner, String member, List<Type> types, Set<String> violations,
                              Deque<Class<?>> queue) {
        Set<Class<?>> classes = new LinkedHashSet<>();
        for (Type t : types) {
            collect(t, classes, new HashSet<>());
        }
        for (Class<?> c : classes) {
            String name = c.getName();
            if (FORBIDDEN.stream().anyMatch(name::startsWith)) {
                violations.add(owner.getName() + " " + member + " names " + name);
            } else if (name.startsWith("io.rocket.") && exposed(c.getModifiers())) {
                queue.add(c);
            }
        }
    }

    /** Every class a type mentions: itself, its type arguments, bounds and array components. */
    private static void collect(Type type, Set<Class<?>> into, Set<TypeVariable<?>> seen) {
        if (type instanceof Class<?> c) {
            while (c.isArray()) {
                c = c.getComponentType();
            }
            if (!c.isPrimitive()) {
                into.add(c);
            }
        } else if (type instanceof ParameterizedType p) {
            collect(p.getRawType(), into, seen);
            if (p.getOwnerType() != null) {
                collect(p.getOwnerType(), into, seen);
            }
            for (Type a : p.getActualTypeArguments()) {
                collect(a, into, seen);
            }
        } else if (type instanceof WildcardType w) {
            for (Type b : w.getUpperBounds()) {
                collect(b, into, seen);
            }
            for (Type b : w.getLowerBounds()) {
                collect(b, into, seen);
            }
        } else if (type instanceof GenericArrayType g) {
            collect(g.getGenericComponentType(), into, seen);
        } else if (type instanceof TypeVariable<?> v && seen.add(v)) {
            for (Type b : v.getBounds()) {
                collect(b, into, seen);
            }
        }
    }
}
