package io.rocket.cli;

import io.rocket.core.Application;
import io.rocket.core.RocketException;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.lang.annotation.Annotation;
import java.lang.reflect.AccessibleObject;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;

/**
 * The application class of the generic command, by name: loaded from the class path and instantiated, every way
 * this can fail being one {@link CommandFailure} line; and whether it declares picocli options of its own.
 */
final class ApplicationClass {

    private ApplicationClass() {
    }

    /**
     * Whether {@code argument} names an application class for the launcher rather than a command: it contains a dot
     * (commands never do), or a class of that name is on the class path. Options and {@code @FILE}s never are.
     */
    static boolean looksLikeClassName(String argument) {
        if (argument.isEmpty() || argument.startsWith("-") || argument.startsWith("@")) {
            return false;
        }
        if (argument.indexOf('.') > 0) {
            return true;
        }
        try {
            Class.forName(argument, false, loader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /** Loads and instantiates the application class; every way this can fail is one line. */
    @SuppressWarnings("unchecked")
    static Application<Object, Object> instantiate(String className, Invocation invocation) {
        if (className.endsWith(".class") || className.endsWith(".java") || className.indexOf('/') >= 0
                || className.indexOf('\\') >= 0) {
            throw new CommandFailure(ExitCode.USAGE, "'" + className + "' looks like a file name: give the "
                    + "application's class name (e.g. com.example.MyApp) and put its classes on -cp");
        }
        Class<?> type;
        try {
            type = Class.forName(className, false, loader());
        } catch (ClassNotFoundException e) {
            throw new CommandFailure(ExitCode.USAGE, "class " + className + " not found on the class path: put the "
                    + "directory or jar holding it on -cp beside rocket.jar (" + invocation.synopsis() + ")");
        } catch (LinkageError e) {
            throw new CommandFailure(ExitCode.USAGE, "cannot load class " + className + ": " + e);
        }
        if (!Application.class.isAssignableFrom(type)) {
            throw new CommandFailure(ExitCode.USAGE, className + " is not a Rocket application: it does not "
                    + "implement " + Application.class.getName());
        }
        if (type.isInterface() || Modifier.isAbstract(type.getModifiers())) {
            throw new CommandFailure(ExitCode.USAGE, className + " is abstract: give a concrete application class");
        }
        if (!Modifier.isPublic(type.getModifiers())) {
            throw new CommandFailure(ExitCode.USAGE, className + " is not public: " + invocation.command()
                    + " can only create public classes");
        }
        Constructor<?> constructor;
        try {
            constructor = type.getConstructor();
        } catch (NoSuchMethodException e) {
            boolean inner = type.isMemberClass() && !Modifier.isStatic(type.getModifiers());
            throw new CommandFailure(ExitCode.USAGE, className + " has no public no-argument constructor"
                    + (inner ? " (an inner class must be static)" : ""));
        }
        try {
            return (Application<Object, Object>) constructor.newInstance();
        } catch (InvocationTargetException e) {
            throw new CommandFailure(ExitCode.ERROR, "cannot create " + className + ": " + describe(e.getCause()));
        } catch (ExceptionInInitializerError e) {
            throw new CommandFailure(ExitCode.ERROR, "cannot initialize " + className + ": "
                    + describe(e.getCause()));
        } catch (ReflectiveOperationException | LinkageError e) {
            throw new CommandFailure(ExitCode.USAGE, "cannot create " + className + ": " + describe(e));
        }
    }

    /** Whether {@code type} or a superclass has picocli option, mixin or argument-group members. */
    static boolean declaresOptions(Class<?> type) {
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            List<AccessibleObject> members = new ArrayList<>(List.of(c.getDeclaredFields()));
            members.addAll(List.of(c.getDeclaredMethods()));
            for (AccessibleObject member : members) {
                for (Class<? extends Annotation> a : List.of(Option.class, Parameters.class, Mixin.class,
                        ArgGroup.class)) {
                    if (member.isAnnotationPresent(a)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /** An exception in a few words: the message of a RocketException or IllegalArgumentException, else its class too. */
    static String describe(Throwable e) {
        if (e == null) {
            return "unknown error";
        }
        if (e.getMessage() == null) {
            return e.toString();
        }
        return e instanceof RocketException || e instanceof IllegalArgumentException ? e.getMessage()
                : e.getClass().getSimpleName() + ": " + e.getMessage();
    }

    private static ClassLoader loader() {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        return loader == null ? ApplicationClass.class.getClassLoader() : loader;
    }
}
