// Bare-metal start for QEMU's MPS2 boards: enable the FPU, zero .bss, run the static
// constructors, open semihosting, exit with main's status.
#include <cstdlib>

extern "C" {
extern unsigned __bss_start__, __bss_end__, __StackTop;
extern void (*__init_array_start[])(void);
extern void (*__init_array_end[])(void);
void initialise_monitor_handles(void);
int main(void);
void _init(void) {}
void _fini(void) {}

void Reset_Handler(void)
{
    *(volatile unsigned *)0xE000ED88 |= (0xFu << 20); // CPACR: CP10, CP11 full access
    __asm volatile("dsb\n isb");
    for (unsigned *p = &__bss_start__; p < &__bss_end__; ++p) *p = 0;
    for (void (**f)(void) = __init_array_start; f < __init_array_end; ++f) (*f)();
    initialise_monitor_handles();
    exit(main());
}

void Fault_Handler(void) { exit(3); }
}

__attribute__((section(".isr_vector"), used)) void *const vectors[16] = {
    &__StackTop, (void *)Reset_Handler, (void *)Fault_Handler, (void *)Fault_Handler,
    (void *)Fault_Handler, (void *)Fault_Handler, (void *)Fault_Handler,
};
